# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
#
# The census workload shared by the guests' /init scripts (kernel/census/
# <kernel>/init.sh: 6.1/init.sh, 6.12/init.sh), sourced as /workload.sh
# from the initramfs: the parts each runs, in the order its /init calls
# them.
# census_start first (busybox links, mounts, the meta file $G),
# census_finish last (writes the census to /dev/vda and reboots).

say() { echo "census-init: $*"; }
mark() { echo "meta workload_$1 $2" >>"$G"; }

census_start() {
	/bin/busybox --install -s /bin
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev
	mount -t debugfs debugfs /sys/kernel/debug
	mount -t tmpfs -o size=256m tmpfs /tmp
	read -r t_init _ </proc/uptime

	say "workload starts at uptime $t_init"
}

G=/tmp/guest-meta

# 1. files on tmpfs: create, look up, rename, delete (dcache, inode lists);
#    files DIR [COUNT], 4000 files unless COUNT says otherwise
files() {
	d=$1
	n=${2:-4000}
	mkdir -p "$d"
	i=0
	while [ $i -lt 16 ]; do mkdir "$d/d$i"; i=$((i + 1)); done
	i=0
	while [ $i -lt "$n" ]; do
		# printf, not ':': a failed redirection of a special built-in ends
		# the shell, and this shell is init (an NFS create once gave EINTR)
		printf '' >"$d/d$((i % 16))/file-$i"
		i=$((i + 1))
	done
	i=0
	while [ $i -lt "$n" ]; do
		[ -e "$d/d$((i % 16))/file-$i" ] || say "missing file-$i"
		[ -e "$d/d$((i % 16))/nofile-$i" ] && say "unexpected nofile-$i"
		i=$((i + 3))
	done
	for sub in "$d"/d*; do
		(cd "$sub" && for f in file-*; do mv "$f" "r$f"; done)
	done
	ls -lR "$d" >/dev/null
	find "$d" -name 'rfile-*7' -exec rm -f {} +
	rm -rf "$d"
}

# 2. the page cache: a 32 MiB file written, read back twice, checksummed
census_pagecache() {
	dd if=/dev/zero of=/tmp/big bs=64k count=512 2>/dev/null
	cat /tmp/big >/dev/null
	md5sum /tmp/big /bin/busybox >/dev/null
	cp /tmp/big /tmp/big2 && cmp /tmp/big /tmp/big2 && rm -f /tmp/big2
}

# 4. btrfs on the second disk, if there is one (made by mkfs.btrfs on the host)
census_btrfs() {
	if [ -b /dev/vdb ] && mkdir -p /mnt/b && mount -t btrfs /dev/vdb /mnt/b 2>/dev/null; then
		files /mnt/b/w
		mkdir /mnt/b/keep
		i=0
		while [ $i -lt 600 ]; do echo "$i" >"/mnt/b/keep/k$i"; i=$((i + 1)); done
		sync
		umount /mnt/b
		mount -t btrfs /dev/vdb /mnt/b
		cat /mnt/b/keep/* >/dev/null
		ls -li /mnt/b/keep >/dev/null
		umount /mnt/b
		echo "meta workload_btrfs yes" >>$G
	else
		echo "meta workload_btrfs no" >>$G
	fi
}

# 5. processes and pipes
census_procs() {
	i=0
	while [ $i -lt 300 ]; do /bin/true; i=$((i + 1)); done
	seq 1 200000 | sort -r | md5sum >/dev/null
	yes census | head -c 16777216 | wc -c >/dev/null
	i=0
	while [ $i -lt 50 ]; do echo "$i" | cat | cat >/dev/null; i=$((i + 1)); done
}

# 6. the loopback network: TCP over IPv4 and IPv6 through nc and busybox
#    httpd/wget, ICMP (ping), UDP (syslogd -R, nslookup), unix sockets
#    (syslogd/logger), an ipip tunnel
census_net() {
	ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
	ip -6 addr add fd00::1/64 dev lo 2>/dev/null
	mkdir -p /tmp/www
	dd if=/dev/urandom of=/tmp/www/blob bs=64k count=16 2>/dev/null
	echo hello >/tmp/www/index.html
	httpd -p 8080 -h /tmp/www
	sleep 1
	i=0
	while [ $i -lt 40 ]; do
		wget -q -O /dev/null http://127.0.0.1:8080/blob || say "wget failed"
		wget -q -O /dev/null http://127.0.0.1:8080/index.html
		wget -q -O /dev/null "http://[::1]:8080/index.html" 2>/dev/null
		i=$((i + 1))
	done
	nc -l -p 9000 >/tmp/nc.out &
	sleep 1
	dd if=/tmp/big bs=64k count=256 2>/dev/null | nc 127.0.0.1 9000
	ping -q -c 20 -i 0.05 127.0.0.1 >/dev/null 2>&1
	ping -6 -q -c 20 -i 0.05 ::1 >/dev/null 2>&1
	syslogd -L -R 127.0.0.1:5514 -O /tmp/messages
	sleep 1
	i=0
	while [ $i -lt 200 ]; do logger -t census "message $i"; i=$((i + 1)); done
	timeout 2 nslookup census.invalid 127.0.0.1 >/dev/null 2>&1
	ip tunnel add census0 mode ipip local 127.0.0.1 remote 127.0.0.2 2>/dev/null &&
		ip link set census0 up && ip addr add 10.99.0.1/30 dev census0 &&
		ip link set census0 down && ip tunnel del census0
	killall httpd nc syslogd 2>/dev/null
}

# cgroups: a v2 hierarchy, a child group, the shell moved in and out
census_cgroups() {
	mkdir -p /sys/fs/cgroup
	if mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null; then
		i=0
		while [ $i -lt 20 ]; do
			mkdir /sys/fs/cgroup/g$i
			echo $$ >/sys/fs/cgroup/g$i/cgroup.procs
			/bin/true
			i=$((i + 1))
		done
		echo $$ >/sys/fs/cgroup/cgroup.procs
		rmdir /sys/fs/cgroup/g*
		umount /sys/fs/cgroup
	fi
}

# 7. proc, sysfs (kernfs inodes come from iget_locked) and tracefs
census_sysfs() {
	find /sys >/dev/null 2>&1
	find /proc -maxdepth 2 >/dev/null 2>&1
	cat /proc/[0-9]*/stat >/dev/null 2>&1
	cat /proc/meminfo /proc/slabinfo /proc/interrupts >/dev/null 2>&1
	cat /sys/kernel/mm/*/* /sys/devices/system/cpu/*/* /sys/class/*/*/uevent \
		/sys/block/*/stat /sys/block/*/queue/* >/dev/null 2>&1
	T=/sys/kernel/debug/tracing
	if [ -d $T ]; then
		# function tracing of a few functions, then kprobe events
		echo 'vfs_* do_sys_open* ksys_* __x64_sys_* __ia32_sys_*' >$T/set_ftrace_filter 2>/dev/null
		echo function >$T/current_tracer 2>/dev/null
		ls -lR /bin >/dev/null
		echo nop >$T/current_tracer
		cat $T/trace >/dev/null
		echo >$T/set_ftrace_filter
		for f in vfs_read vfs_write do_unlinkat filemap_read; do
			echo "p:census_$f $f" >>$T/kprobe_events 2>/dev/null
		done
		echo 1 >$T/events/kprobes/enable 2>/dev/null
		ls -lR /bin >/dev/null
		cat /proc/meminfo >/dev/null
		echo 0 >$T/events/kprobes/enable 2>/dev/null
		echo >$T/kprobe_events 2>/dev/null
		echo 'meta workload_tracing yes' >>$G
	fi
}

# once more the files, after all of the above; then the census to /dev/vda
census_finish() {
	files /tmp/w2
	sync

	read -r t_done _ </proc/uptime
	say "workload done at uptime $t_done"
	{
		echo "meta guest_uptime_at_init $t_init s"
		echo "meta guest_uptime_at_workload_end $t_done s"
		echo "meta guest_workload_seconds $(awk "BEGIN{printf \"%.2f\", $t_done - $t_init}")"
		echo "meta guest_nproc $(nproc)"
		echo "meta guest_uname $(uname -a)"
	} >>$G

	C=/sys/kernel/debug/hash_census
	if [ -r $C ]; then
		cat $C >/tmp/census.txt
	else
		: >/tmp/census.txt
	fi
	gb=$(wc -c <$G)
	cb=$(wc -c </tmp/census.txt)
	{
		echo "KHASH-CENSUS-DISK 1 $gb $cb"
		cat $G /tmp/census.txt
	} >/dev/vda
	sync
	say "census written: $cb bytes"
	reboot -f
}
