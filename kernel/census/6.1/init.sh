#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the census initramfs (busybox-static): a short, recognisable
# workload that reaches many of the kernel's hash tables, then the census
# file from debugfs is written to the raw virtio disk /dev/vda (never the
# console) and the machine reboots (QEMU runs with -no-reboot).
#
# Disk layout: one line "KHASH-CENSUS-DISK 1 <guest bytes> <census bytes>",
# then the guest's own "meta" lines, then the census file as read.

export PATH=/bin
# shellcheck source=kernel/census/workload.sh
. /workload.sh
census_start

# 1. files on tmpfs: create, look up, rename, delete; 2. the page cache
files /tmp/w1
census_pagecache

# 3. ext2 on a loop device (block layer, buffer heads, iget/inode hash);
#    busybox mke2fs wants a block device, so the loop device comes first
L=$(losetup -f 2>/dev/null)
if [ -n "$L" ] && dd if=/dev/zero of=/tmp/ext2.img bs=1M count=48 2>/dev/null &&
	losetup "$L" /tmp/ext2.img && mke2fs -q "$L" && mkdir -p /mnt/e &&
	mount -t ext2 "$L" /mnt/e; then
	files /mnt/e/w
	mkdir /mnt/e/keep
	i=0
	while [ $i -lt 600 ]; do echo "$i" >"/mnt/e/keep/k$i"; i=$((i + 1)); done
	cp /bin/busybox /mnt/e/keep/
	umount /mnt/e
	echo 3 >/proc/sys/vm/drop_caches 2>/dev/null
	mount -t ext2 "$L" /mnt/e
	cat /mnt/e/keep/* >/dev/null
	ls -li /mnt/e/keep >/dev/null
	umount /mnt/e
	losetup -d "$L"
	echo "meta workload_ext2 yes" >>$G
else
	say "no ext2 on loop"
	echo "meta workload_ext2 no" >>$G
fi

census_btrfs
census_procs
census_net
census_cgroups
census_sysfs
census_finish
