#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the 6.12 census initramfs: busybox-static, census-load (our own
# static helper) and Debian binaries of the guest's arch in /usr/sbin (see
# userland.sh).  The 6.1 workload (kernel/census/6.1/init.sh) with ext4 for
# ext2, then what 6.12 adds: modules loaded and some unloaded again,
# vfat/exfat, xattrs, md raid1 and dm-cache, virtual network devices,
# tunnels, L2TP, tc, nftables, NFS over loopback, io_uring, fanotify,
# locks, multicast, perf, timers, BPF, KSM, THP, raw sockets and
# vhost-vsock.  Tables keyed by an address, an id or a handle get a few
# dozen of them (devices, addresses, tunnels, sessions, counters), so
# that a site has enough distinct keys to be judged.  A part whose tools
# are missing is skipped and says so in a workload_* meta line.
# Then the census file from debugfs is written to the raw virtio disk
# /dev/vda (never the console) and the machine reboots.
#
# Disk layout: one line "KHASH-CENSUS-DISK 1 <guest bytes> <census bytes>",
# then the guest's own "meta" lines, then the census file as read.

export PATH=/usr/sbin:/bin
# shellcheck source=kernel/census/workload.sh
. /workload.sh
census_start
# Everything between census_start and census_finish runs in a subshell:
# a part that makes the shell exit (a special built-in's failed
# redirection, say) ends the workload, not init, and the census of what
# ran is still written
(
have() { command -v "$1" >/dev/null 2>&1; }
# step NAME CMD...: run CMD quietly; when it fails, $why says which step
# and its first line of error, for the part's workload_* meta line
why=
step() {
	_n=$1
	shift
	_o=$("$@" 2>&1) && return 0
	why="$_n failed: $(echo "$_o" | head -n 1 | cut -c1-100)"
	return 1
}
# Debian's busybox runs its own applet for a name it has, whatever PATH
# says: the Debian binaries of the same names are called through functions
for b in ip tc mke2fs setfattr getfattr; do
	[ ! -x /usr/sbin/$b ] || eval "$b() { /usr/sbin/$b \"\$@\"; }"
done

# 1. files on tmpfs: create, look up, rename, delete; 2. the page cache
files /tmp/w1
census_pagecache

# 3. ext4 on a loop device (module; journal, xattrs, block layer, mbcache,
#    iget/inode hash); Debian's mke2fs, else ext2 by busybox.  128-byte
#    inodes have no room for xattrs, so they go to shared blocks (mbcache)
modprobe ext4 2>/dev/null
L=$(losetup -f 2>/dev/null)
fs=ext2
[ ! -x /usr/sbin/mke2fs ] || fs=ext4
if [ -n "$L" ] && dd if=/dev/zero of=/tmp/ext4.img bs=1M count=64 2>/dev/null &&
	losetup "$L" /tmp/ext4.img && mke2fs -q -t $fs -I 128 "$L" 2>/dev/null && mkdir -p /mnt/e &&
	mount -t ext4 -o user_xattr "$L" /mnt/e; then
	files /mnt/e/w
	mkdir /mnt/e/keep
	i=0
	while [ $i -lt 600 ]; do
		echo "$i" >"/mnt/e/keep/k$i"
		have setfattr && setfattr -n user.census -v "v$((i % 97))" "/mnt/e/keep/k$i"
		i=$((i + 1))
	done
	cp /bin/busybox /mnt/e/keep/
	umount /mnt/e
	echo 3 >/proc/sys/vm/drop_caches 2>/dev/null
	# lazytime: writing an inode back updates the times of the others in
	# its inode-table block that are in memory (looked up by number)
	mount -t ext4 -o lazytime "$L" /mnt/e
	cat /mnt/e/keep/* >/dev/null
	i=0
	while [ $i -lt 600 ]; do echo more >>"/mnt/e/keep/k$i"; i=$((i + 7)); done
	sync
	have getfattr && getfattr -R -d /mnt/e/keep >/dev/null 2>&1
	ls -li /mnt/e/keep >/dev/null
	umount /mnt/e
	losetup -d "$L"
	rm -f /tmp/ext4.img
	mark ext4 "yes ($fs by mke2fs)"
else
	say "no ext4 on loop"
	mark ext4 no
fi

# 3b. vfat and exfat on loop devices (modules; fat and exfat inode hashes;
#     vfat with nfs=stale_rw also hashes its directories by position)
for t in vfat exfat; do
	mk=
	opt=rw
	case $t in
	vfat) have mkfs.fat && mk="mkfs.fat" opt=nfs=stale_rw ;;
	exfat) have mkfs.exfat && mk="env LANG=C.UTF-8 mkfs.exfat" ;;
	esac
	L=$(losetup -f 2>/dev/null)
	why="no mkfs or no free loop device"
	# shellcheck disable=SC2086 # $mk is a command with its arguments
	if [ -n "$mk" ] && [ -n "$L" ] && step modprobe modprobe $t &&
		step dd dd if=/dev/zero of=/tmp/$t.img bs=1M count=64 &&
		step losetup losetup "$L" /tmp/$t.img && step mkfs $mk "$L" &&
		mkdir -p /mnt/$t && step mount mount -t $t -o "$opt" "$L" /mnt/$t; then
		mark ${t}_options "$(sed -n "s|^[^ ]* /mnt/$t [^ ]* \([^ ]*\).*|\1|p" /proc/mounts)"
		mkdir /mnt/$t/d
		i=0
		while [ $i -lt 800 ]; do echo "$i" >"/mnt/$t/d/f$i"; i=$((i + 1)); done
		i=0
		while [ $i -lt 100 ]; do mkdir "/mnt/$t/d/s$i"; i=$((i + 1)); done
		umount /mnt/$t
		echo 3 >/proc/sys/vm/drop_caches 2>/dev/null
		mount -t $t -o "$opt" "$L" /mnt/$t
		cat /mnt/$t/d/f* >/dev/null
		ls -l /mnt/$t/d/s* >/dev/null
		ls -l /mnt/$t/d >/dev/null
		rm -rf /mnt/$t/d
		umount /mnt/$t
		losetup -d "$L"
		rm -f /tmp/$t.img
		mark $t yes
	else
		mark $t "no ($why)"
		umount /mnt/$t 2>/dev/null
		[ -z "$L" ] || losetup -d "$L" 2>/dev/null
		rm -f /tmp/$t.img # tmpfs space the later parts need
	fi
done

# 3c. md raid1 (its barrier buckets hash 64 MiB units of the array: 32
#     units written on sparse 2 GiB members) and dm-cache with the smq
#     policy (its hash tables are keyed by origin and cache blocks)
if have mdadm && modprobe raid1 2>/dev/null &&
	dd if=/dev/zero of=/tmp/md0.img bs=1M count=1 seek=2047 2>/dev/null &&
	dd if=/dev/zero of=/tmp/md1.img bs=1M count=1 seek=2047 2>/dev/null &&
	A=$(losetup -f) && losetup "$A" /tmp/md0.img && B=$(losetup -f) && losetup "$B" /tmp/md1.img &&
	mkdir -p /run/mdadm && mdadm --create /dev/md0 --run --quiet --level=1 --raid-devices=2 \
		--metadata=1.2 --assume-clean "$A" "$B" >/dev/null 2>&1; then
	u=0
	while [ $u -lt 32 ]; do
		dd if=/tmp/big of=/dev/md0 bs=64k count=4 seek=$((u * 1024 + 8)) 2>/dev/null
		u=$((u + 1))
	done
	sync
	echo 3 >/proc/sys/vm/drop_caches
	u=0
	while [ $u -lt 32 ]; do
		dd if=/dev/md0 of=/dev/null bs=64k count=4 skip=$((u * 1024 + 8)) 2>/dev/null
		u=$((u + 1))
	done
	mdadm --stop /dev/md0 >/dev/null 2>&1
	mark md_raid1 yes
else
	mark md_raid1 no
fi
[ -z "${A:-}" ] || losetup -d "$A" 2>/dev/null
[ -z "${B:-}" ] || losetup -d "$B" 2>/dev/null
rm -f /tmp/md0.img /tmp/md1.img
why="no dmsetup"
if have dmsetup && step modprobe modprobe dm_cache_smq &&
	step dd dd if=/dev/zero of=/tmp/cmeta.img bs=1M count=8 &&
	step dd dd if=/dev/zero of=/tmp/cfast.img bs=1M count=16 &&
	step dd dd if=/dev/zero of=/tmp/corig.img bs=1M count=96 &&
	M=$(losetup -f) && losetup "$M" /tmp/cmeta.img && F=$(losetup -f) && losetup "$F" /tmp/cfast.img &&
	O=$(losetup -f) && losetup "$O" /tmp/corig.img &&
	step dmsetup dmsetup create census-cache --noudevsync \
		--table "0 $((96 * 2048)) cache $M $F $O 64 1 writeback smq 0"; then
	c=/dev/mapper/census-cache
	[ -b $c ] || c=/dev/dm-0
	for pass in 1 2 3 4; do
		b=0
		while [ $b -lt 96 ]; do
			dd if=/tmp/big of=$c bs=32k count=2 seek=$((b * 32 + pass)) conv=notrunc 2>/dev/null
			b=$((b + 1))
		done
		sync
		echo 3 >/proc/sys/vm/drop_caches
		dd if=$c of=/dev/null bs=1M count=96 2>/dev/null
	done
	dmsetup status census-cache >/dev/null 2>&1
	dmsetup remove --noudevsync census-cache 2>/dev/null
	mark dm_cache yes
else
	mark dm_cache "no ($why)"
fi
for d in "${M:-}" "${F:-}" "${O:-}"; do [ -z "$d" ] || losetup -d "$d" 2>/dev/null; done
rm -f /tmp/cmeta.img /tmp/cfast.img /tmp/corig.img

# 4. btrfs (a module here) on the second disk, then files with a
#    compression property (btrfs looks its property handlers up by the
#    hash of the xattr name); 5. processes and pipes; 6. the loopback
#    network
modprobe btrfs 2>/dev/null
census_btrfs
if have setfattr && mount -t btrfs /dev/vdb /mnt/b 2>/dev/null; then
	mkdir -p /mnt/b/props
	i=0
	while [ $i -lt 40 ]; do
		echo "$i" >"/mnt/b/props/p$i"
		setfattr -n btrfs.compression -v zstd "/mnt/b/props/p$i" 2>/dev/null
		i=$((i + 1))
	done
	umount /mnt/b
	echo 3 >/proc/sys/vm/drop_caches
	mount -t btrfs /dev/vdb /mnt/b && cat /mnt/b/props/* >/dev/null && umount /mnt/b
	mark btrfs_props yes
else
	mark btrfs_props no
fi
census_procs
census_net

# 6b. virtual network devices (modules), tc qdiscs, nftables, traffic.
#     24 of each keyed thing: macvlans (MAC), vxlans and geneves (VNI,
#     remote), ipip/gre/ip6ip6/ip6gre tunnels (remote), vrfs (table),
#     child qdiscs (handle), IPv4/IPv6 addresses and their anycast,
#     routes (metric), TCP peers, nftables named counters
if have tc && ip link add census-d0 type dummy 2>/dev/null; then
	for m in ip_gre ip6_gre l2tp_eth l2tp_ip; do modprobe $m 2>/dev/null; done
	ip link set lo multicast on
	ip link set census-d0 up
	ip addr add 10.98.0.1/24 dev census-d0
	ip link add census-v0 type veth peer name census-v1
	ip link set census-v0 up && ip link set census-v1 up
	ip addr add 10.97.0.1/24 dev census-v0
	ip addr add 10.97.0.2/24 dev census-v1
	i=0
	while [ $i -lt 24 ]; do
		ip link add link census-d0 name census-m$i type macvlan mode bridge
		ip link set census-m$i address "02:00:00:00:$(printf %02x $i):01" up
		ip link add census-x$i type vxlan id $((100 + i)) local 127.0.0.1 dstport $((4789 + i))
		ip link set census-x$i up
		bridge fdb append 00:00:00:00:00:00 dev census-x$i dst 127.0.0.$((i + 2)) 2>/dev/null
		ip link add census-g$i type geneve id $((200 + i)) remote 127.0.0.$((i + 2))
		ip link set census-g$i up
		ip tunnel add census-i$i mode ipip local 127.0.0.1 remote 10.93.0.$((i + 1)) 2>/dev/null
		ip tunnel add census-r$i mode gre local 127.0.0.1 remote 10.92.0.$((i + 1)) key $((i + 1)) 2>/dev/null
		ip -6 tunnel add census-s$i mode ip6ip6 local ::1 remote fd00:93::$((i + 1)) 2>/dev/null
		ip -6 tunnel add census-e$i mode ip6gre local ::1 remote fd00:92::$((i + 1)) 2>/dev/null
		ip link add census-f$i type vrf table $((100 + i)) 2>/dev/null && ip link set census-f$i up
		tc qdisc add dev census-m$i root handle 1: htb default 1
		tc class add dev census-m$i parent 1: classid 1:1 htb rate 10mbit
		tc qdisc add dev census-m$i parent 1:1 handle $((i + 10)): fq_codel
		i=$((i + 1))
	done
	# L2TPv3 over UDP: two tunnels facing each other on lo, 24 sessions in
	# each with the same ids (the collision hash), their devices up (the
	# IPv6 link-local traffic goes through the sessions)
	if ip l2tp add tunnel tunnel_id 1 peer_tunnel_id 2 encap udp local 127.0.0.1 \
		remote 127.0.0.1 udp_sport 1701 udp_dport 1702 2>/dev/null &&
		ip l2tp add tunnel tunnel_id 2 peer_tunnel_id 1 encap udp local 127.0.0.1 \
			remote 127.0.0.1 udp_sport 1702 udp_dport 1701; then
		i=1
		while [ $i -le 24 ]; do
			ip l2tp add session name census-l$i tunnel_id 1 session_id $i peer_session_id $i
			ip l2tp add session name census-k$i tunnel_id 2 session_id $i peer_session_id $i
			ip link set census-l$i up
			ip link set census-k$i up
			i=$((i + 1))
		done
		sleep 2
		i=1
		while [ $i -le 24 ]; do
			ping6 -q -c 2 -i 0.1 -W 1 -I census-l$i ff02::1 >/dev/null 2>&1
			i=$((i + 1))
		done
		ip l2tp show tunnel >/dev/null
		ip l2tp show session >/dev/null
		mark l2tp yes
	else
		mark l2tp no
	fi
	ip link add census-vrf type vrf table 10 && ip link set census-vrf up &&
		ip link set census-d0 master census-vrf && ip link set census-d0 nomaster
	ip -6 tunnel add census-t6 mode ip6ip6 local ::1 remote ::2 2>/dev/null &&
		ip link set census-t6 up
	i=0
	while [ $i -lt 24 ]; do
		ip addr add 10.96.$i.1/24 dev census-d0
		ip -6 addr add fd00:96:$i::1/64 dev census-d0 nodad
		ip route add 10.95.$i.0/24 dev census-d0 metric $((i + 1))
		ip -6 route add fd00:95:$i::/64 dev census-d0
		i=$((i + 1))
	done
	# a router has the subnet-router anycast address of every prefix
	echo 1 >/proc/sys/net/ipv6/conf/all/forwarding
	tc qdisc add dev census-v0 root fq
	tc qdisc add dev lo root fq
	tc qdisc add dev census-d0 root handle 1: htb default 10
	tc class add dev census-d0 parent 1: classid 1:10 htb rate 100mbit
	tc qdisc add dev census-d0 parent 1:10 fq_codel
	tc filter add dev census-d0 parent 1: protocol ip u32 match ip dst 10.98.0.0/24 flowid 1:10
	nft add table inet census
	nft add chain inet census out '{ type filter hook output priority 0; }'
	nft add chain inet census in '{ type filter hook input priority 0; }'
	nft add rule inet census out ct state new,established counter
	nft add rule inet census in meta mark set jhash ip saddr mod 16 counter
	nft add rule inet census in tcp dport 8080 counter accept
	i=0
	while [ $i -lt 24 ]; do nft add counter inet census c$i; i=$((i + 1)); done
	nft add rule inet census out ip daddr 10.96.0.0/16 counter name c3
	# packets traced while a listener is there (nft monitor trace)
	nft add chain inet census trace '{ type filter hook output priority -1; }'
	nft add rule inet census trace ip daddr 10.97.0.2 meta nftrace set 1
	nft monitor trace >/dev/null 2>&1 &
	tracer=$!
	nft add table ip censusnat
	nft add chain ip censusnat post '{ type nat hook postrouting priority 100; }'
	nft add rule ip censusnat post ip daddr 10.98.0.0/24 masquerade 2>/dev/null
	httpd -p 8081 -h /tmp/www
	nc -l -p 9001 >/dev/null &
	sleep 1
	i=0
	while [ $i -lt 30 ]; do
		wget -q -O /dev/null http://127.0.0.1:8081/blob
		ping -q -c 2 -i 0.05 10.97.0.2 >/dev/null 2>&1
		ping -q -c 1 -W 1 10.98.0.$((i + 2)) >/dev/null 2>&1
		i=$((i + 1))
	done
	dd if=/tmp/big bs=64k count=64 2>/dev/null | nc 127.0.0.1 9001
	kill $tracer 2>/dev/null
	# TCP to 24 local addresses (the metrics cache is keyed by the peer),
	# then each peer's metrics read and deleted over netlink
	i=0
	while [ $i -lt 24 ]; do
		wget -q -O /dev/null http://10.96.$i.1:8081/index.html
		i=$((i + 1))
	done
	i=0
	while [ $i -lt 24 ]; do
		ip tcp_metrics show 10.96.$i.1 >/dev/null 2>&1
		ip tcp_metrics delete 10.96.$i.1 2>/dev/null
		i=$((i + 1))
	done
	# fq's flow table rebuilt at a new size (every flow hashed again)
	tc qdisc change dev lo root fq buckets 4096 2>/dev/null
	# %p in /proc/net: each socket's address hashed by the kernel
	echo 0 >/proc/sys/kernel/kptr_restrict 2>/dev/null
	for f in unix netlink packet tcp tcp6 udp udp6 raw raw6; do
		cat /proc/net/$f >/dev/null 2>&1
	done
	nft list ruleset >/dev/null
	tc -s qdisc show >/dev/null
	nft flush ruleset
	killall httpd nc 2>/dev/null
	mark net_modules "yes (dummy veth macvlan vxlan geneve vrf ip6_tunnel, tc fq htb fq_codel u32, nftables ct nat hash)"
else
	mark net_modules "no (no tc or no dummy module)"
fi

# 6c. NFSv4 over loopback: nfsd (module) exporting tmpfs, the client mounting it
#     In a subshell: whatever fails in it must not end init (the census
#     would be lost with the kernel's panic)
(
	if have rpc.nfsd && modprobe nfsd 2>/dev/null && modprobe nfsv4 2>/dev/null; then
		mkdir -p /srv/nfs /var/lib/nfs/v4recovery /run/rpc_pipefs /mnt/n /proc/fs/nfsd
		mount -t tmpfs -o size=128m tmpfs /srv/nfs
		mount -t nfsd nfsd /proc/fs/nfsd
		: >/var/lib/nfs/etab
		: >/var/lib/nfs/rmtab
		echo 10 >/proc/fs/nfsd/nfsv4leasetime 2>/dev/null
		echo 10 >/proc/fs/nfsd/nfsv4gracetime 2>/dev/null
		exportfs -ra 2>&1 | head -n 3
		rpc.mountd -N 2 -N 3 >/tmp/nfsd.err 2>&1
		rpc.nfsd -N 3 --no-udp 4 >>/tmp/nfsd.err 2>&1
		# soft, with a timeout on the mount: a server that never answers costs
		# five minutes, not the boot (a hard mount once hung the whole run)
		if timeout 300 mount.nfs4 127.0.0.1:/ /mnt/n -o vers=4.0,soft,timeo=300,retrans=3 \
			>/tmp/nfs.err 2>&1 && grep -q ' /mnt/n ' /proc/mounts; then
			sleep 12 # the server's grace period (10 s) first
			files /mnt/n/w 800
			mkdir /mnt/n/keep
			i=0
			while [ $i -lt 300 ]; do echo "$i" >"/mnt/n/keep/k$i"; i=$((i + 1)); done
			cat /mnt/n/keep/* >/dev/null
			ls -l /mnt/n/keep >/dev/null
			census-load /mnt/n >/dev/null 2>&1
			umount -f /mnt/n 2>/dev/null || umount -l /mnt/n
			mark nfs yes
		else
			mark nfs "no (mount failed: $(head -c 160 /tmp/nfs.err | tr '\n' ' '); servers said: $(head -c 160 /tmp/nfsd.err | tr '\n' ' '); $(dmesg | grep -i -E 'nfs|rpc|lockd' | tail -n 2 | tr '\n' ' '))"
		fi
		rpc.nfsd 0 2>/dev/null
		killall rpc.mountd 2>/dev/null
		umount /proc/fs/nfsd
		umount /srv/nfs
	else
		mark nfs "no (no rpc.nfsd or module)"
	fi
)

# 6d. census-load: io_uring, fanotify, locks, multicast, perf, POSIX
#     timers, BPF, KSM + THP, raw sockets, UDP queues under pressure,
#     vhost-vsock (see census-load.c)
mkdir -p /tmp/load
modprobe vhost_vsock 2>/dev/null
census-load /tmp/load | tee /tmp/load.out
mark census_load "$(grep -c ' ok$' /tmp/load.out) parts ok: $(sed -n 's/^census-load: \(.*\) ok$/\1/p' /tmp/load.out | tr '\n' ' ')"
if have perf; then
	perf stat -e task-clock,page-faults,context-switches ls -lR /bin >/dev/null 2>&1
	perf record -q -o /tmp/perf.data -e cpu-clock -c 10000 -- find /sys -name uevent >/dev/null 2>&1
	perf report -q -i /tmp/perf.data >/dev/null 2>&1
	mark perf yes
fi
have bpftool && bpftool feature probe >/dev/null 2>&1 && bpftool prog list >/dev/null 2>&1 &&
	mark bpftool yes

# 6e. unload modules again: their sites stay in the census (retired)
ip link del census-vrf 2>/dev/null
ip l2tp del tunnel tunnel_id 1 2>/dev/null
ip l2tp del tunnel tunnel_id 2 2>/dev/null
for d in /sys/class/net/census-*; do
	[ -e "$d" ] && ip link del "${d##*/}" 2>/dev/null
done
tc qdisc del dev lo root 2>/dev/null
for m in nfsv4 nfs nfsd vfat fat exfat geneve vxlan macvlan vrf dummy veth ip6_tunnel \
	sch_fq sch_htb sch_fq_codel cls_u32 nft_hash nft_ct nft_nat nf_tables \
	l2tp_eth l2tp_ip l2tp_netlink l2tp_core ip6_gre ip_gre gre vhost_vsock \
	vmw_vsock_virtio_transport_common vsock vhost raid1 md_mod dm_cache_smq \
	dm_cache dm_persistent_data dm_bio_prison dm_bufio dm_mod; do
	rmmod $m 2>/dev/null
done
mark modules_left "$(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"

census_cgroups
census_sysfs
) || { say "the workload ended early (status $?)"; mark ended_early yes; }
census_finish
