#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the 6.12 census initramfs: busybox-static, census-load (our own
# static helper) and, on x86_64, Debian binaries in /usr/sbin (see
# userland.sh).  The 6.1 workload (kernel/census/init.sh) with ext4 for
# ext2, then what 6.12 adds: modules loaded and some unloaded again,
# vfat/exfat, xattrs, virtual network devices, tc, nftables, NFS over
# loopback, io_uring, fanotify, locks, multicast, perf, timers, BPF, KSM
# and THP.  A part whose tools are missing (i386 has busybox and
# census-load only) is skipped and says so in a workload_* meta line.
# Then the census file from debugfs is written to the raw virtio disk
# /dev/vda (never the console) and the machine reboots.
#
# Disk layout: one line "KHASH-CENSUS-DISK 1 <guest bytes> <census bytes>",
# then the guest's own "meta" lines, then the census file as read.

export PATH=/usr/sbin:/bin
# shellcheck source=kernel/census/workload.sh
. /workload.sh
census_start
have() { command -v "$1" >/dev/null 2>&1; }
# Debian's busybox runs its own applet for a name it has, whatever PATH
# says: the Debian binaries of the same names are called through functions
for b in ip tc mke2fs setfattr getfattr; do
	[ ! -x /usr/sbin/$b ] || eval "$b() { /usr/sbin/$b \"\$@\"; }"
done

# 1. files on tmpfs: create, look up, rename, delete; 2. the page cache
files /tmp/w1
census_pagecache

# 3. ext4 on a loop device (module; journal, xattrs, block layer, mbcache,
#    iget/inode hash); Debian's mke2fs on x86_64, else ext2 by busybox
modprobe ext4 2>/dev/null
L=$(losetup -f 2>/dev/null)
fs=ext2
[ ! -x /usr/sbin/mke2fs ] || fs=ext4
if [ -n "$L" ] && dd if=/dev/zero of=/tmp/ext4.img bs=1M count=64 2>/dev/null &&
	losetup "$L" /tmp/ext4.img && mke2fs -q -t $fs "$L" 2>/dev/null && mkdir -p /mnt/e &&
	mount -t ext4 -o user_xattr "$L" /mnt/e; then
	files /mnt/e/w
	mkdir /mnt/e/keep
	i=0
	while [ $i -lt 600 ]; do
		echo "$i" >"/mnt/e/keep/k$i"
		have setfattr && setfattr -n user.census -v "v$((i % 7))" "/mnt/e/keep/k$i"
		i=$((i + 1))
	done
	cp /bin/busybox /mnt/e/keep/
	umount /mnt/e
	echo 3 >/proc/sys/vm/drop_caches 2>/dev/null
	mount -t ext4 "$L" /mnt/e
	cat /mnt/e/keep/* >/dev/null
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

# 3b. vfat and exfat on loop devices (modules; fat and exfat inode hashes)
for t in vfat exfat; do
	mk=
	case $t in
	vfat) have mkfs.fat && mk="mkfs.fat" ;;
	exfat) have mkfs.exfat && mk="env LANG=C.UTF-8 mkfs.exfat" ;;
	esac
	L=$(losetup -f 2>/dev/null)
	if [ -n "$mk" ] && [ -n "$L" ] && modprobe $t 2>/dev/null &&
		dd if=/dev/zero of=/tmp/$t.img bs=1M count=64 2>/dev/null &&
		losetup "$L" /tmp/$t.img && $mk "$L" >/dev/null 2>&1 &&
		mkdir -p /mnt/$t && mount -t $t "$L" /mnt/$t; then
		mkdir /mnt/$t/d
		i=0
		while [ $i -lt 800 ]; do echo "$i" >"/mnt/$t/d/f$i"; i=$((i + 1)); done
		umount /mnt/$t
		echo 3 >/proc/sys/vm/drop_caches 2>/dev/null
		mount -t $t "$L" /mnt/$t
		cat /mnt/$t/d/* >/dev/null
		ls -l /mnt/$t/d >/dev/null
		rm -rf /mnt/$t/d
		umount /mnt/$t
		losetup -d "$L"
		rm -f /tmp/$t.img
		mark $t yes
	else
		mark $t no
	fi
done

# 4. btrfs (a module here) on the second disk; 5. processes and pipes;
# 6. the loopback network
modprobe btrfs 2>/dev/null
census_btrfs
census_procs
census_net

# 6b. virtual network devices (modules), tc qdiscs, nftables, traffic
if have tc && ip link add census-d0 type dummy 2>/dev/null; then
	ip link set lo multicast on
	ip link set census-d0 up
	ip addr add 10.98.0.1/24 dev census-d0
	ip link add census-v0 type veth peer name census-v1
	ip link set census-v0 up && ip link set census-v1 up
	ip addr add 10.97.0.1/24 dev census-v0
	ip addr add 10.97.0.2/24 dev census-v1
	i=0
	while [ $i -lt 8 ]; do
		ip link add link census-d0 name census-m$i type macvlan mode bridge
		ip link set census-m$i address 02:00:00:00:0$i:01 up
		ip link add census-x$i type vxlan id $((100 + i)) local 127.0.0.1 dstport $((4789 + i))
		ip link set census-x$i up
		bridge fdb append 00:00:00:00:00:00 dev census-x$i dst 127.0.0.$((i + 2)) 2>/dev/null
		ip link add census-g$i type geneve id $((200 + i)) remote 127.0.0.$((i + 2))
		ip link set census-g$i up
		i=$((i + 1))
	done
	ip link add census-vrf type vrf table 10 && ip link set census-vrf up &&
		ip link set census-d0 master census-vrf && ip link set census-d0 nomaster
	ip -6 tunnel add census-t6 mode ip6ip6 local ::1 remote ::2 2>/dev/null &&
		ip link set census-t6 up
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
	nft list ruleset >/dev/null
	tc -s qdisc show >/dev/null
	nft flush ruleset
	killall httpd nc 2>/dev/null
	mark net_modules "yes (dummy veth macvlan vxlan geneve vrf ip6_tunnel, tc fq htb fq_codel u32, nftables ct nat hash)"
else
	mark net_modules "no (no tc or no dummy module)"
fi

# 6c. NFSv4 over loopback: nfsd (module) exporting tmpfs, the client mounting it
if have rpc.nfsd && modprobe nfsd 2>/dev/null && modprobe nfsv4 2>/dev/null; then
	mkdir -p /srv/nfs /var/lib/nfs/v4recovery /run/rpc_pipefs /mnt/n /proc/fs/nfsd
	mount -t tmpfs -o size=128m tmpfs /srv/nfs
	mount -t nfsd nfsd /proc/fs/nfsd
	: >/var/lib/nfs/etab
	: >/var/lib/nfs/rmtab
	echo 10 >/proc/fs/nfsd/nfsv4leasetime 2>/dev/null
	echo 10 >/proc/fs/nfsd/nfsv4gracetime 2>/dev/null
	exportfs -ra 2>&1 | head -n 3
	rpc.mountd -N 2 -N 3 2>&1 | head -n 3
	rpc.nfsd -N 3 --no-udp 4 2>&1 | head -n 3
	if mount.nfs4 127.0.0.1:/ /mnt/n -o vers=4.0 2>&1 | head -n 3 &&
		grep -q ' /mnt/n ' /proc/mounts; then
		files /mnt/n/w 800
		mkdir /mnt/n/keep
		i=0
		while [ $i -lt 300 ]; do echo "$i" >"/mnt/n/keep/k$i"; i=$((i + 1)); done
		cat /mnt/n/keep/* >/dev/null
		ls -l /mnt/n/keep >/dev/null
		census-load /mnt/n >/dev/null 2>&1
		umount /mnt/n
		mark nfs yes
	else
		mark nfs "no (mount failed)"
	fi
	rpc.nfsd 0 2>/dev/null
	killall rpc.mountd 2>/dev/null
	umount /proc/fs/nfsd
	umount /srv/nfs
else
	mark nfs "no (no rpc.nfsd or module)"
fi

# 6d. census-load: io_uring, fanotify, locks, multicast, perf, POSIX
#     timers, BPF, KSM + THP (see census-load.c)
mkdir -p /tmp/load
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
for d in /sys/class/net/census-*; do
	[ -e "$d" ] && ip link del "${d##*/}" 2>/dev/null
done
tc qdisc del dev lo root 2>/dev/null
for m in nfsv4 nfs nfsd vfat fat exfat geneve vxlan macvlan vrf dummy veth ip6_tunnel \
	sch_fq sch_htb sch_fq_codel cls_u32 nft_hash nft_ct nft_nat nf_tables; do
	rmmod $m 2>/dev/null
done
mark modules_left "$(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"

census_cgroups
census_sysfs
census_finish
