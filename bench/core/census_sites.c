/* SPDX-License-Identifier: MIT */
#include "census_sites.h"

#include <stddef.h>
#include <string.h>

#define CHAINED KB_KIND_CHAINED
#define LOCKS KB_KIND_LOCKS
#define OTHER KB_SITE_OTHER

/*
 * Each site as the census records it: a line of a header's inline function
 * stands for every .c file that includes it, and hash_add(),
 * hash_for_each_possible() and hash_min() give the .c line that uses them.
 * fs/inode.c's hash() sites and the btrfs_inode_hash() ones are the
 * inode-hash table's (census.c), so none of them is here.
 */
const struct kb_census_site_use kb_census_site_uses[] = {
	{ "block/elevator.c:223", NULL, CHAINED, "elevator request hash" },
	{ "block/elevator.c:240", NULL, CHAINED, "elevator request hash" },
	{ "fs/btrfs/props.c:33", NULL, CHAINED, "btrfs property handlers" },
	{ "fs/btrfs/props.c:465", NULL, CHAINED, "btrfs property handlers" },
	{ "fs/kernfs/file.c:45", NULL, LOCKS, "kernfs open-file mutexes" },
	{ "fs/locks.c:645", NULL, CHAINED, "blocked POSIX lock owners" },
	{ "fs/locks.c:965", NULL, CHAINED, "blocked POSIX lock owners" },
	/* the name hash itself: the dcache hashes it again into its table */
	{ "fs/namei.c:2109", NULL, OTHER, "32-bit name hash (fold_hash)" },
	{ "include/linux/stringhash.h:55", NULL, OTHER, "32-bit name hash (end_name_hash)" },
	/* one input of a neighbour-table hash that random multipliers mix */
	{ "include/net/arp.h:16", NULL, OTHER, "device word in the ARP neighbour hash" },
	{ "include/net/ndisc.h:375", NULL, OTHER, "device word in the NDISC neighbour hash" },
	{ "include/net/raw.h:45", NULL, CHAINED, "raw socket hash" },
	{ "kernel/cgroup/cgroup.c:1137", NULL, CHAINED, "css_set hash" },
	{ "kernel/cgroup/cgroup.c:1291", NULL, CHAINED, "css_set hash" },
	{ "kernel/cgroup/cgroup.c:6151", NULL, CHAINED, "css_set hash" },
	{ "kernel/cgroup/cgroup.c:6215", NULL, CHAINED, "css_set hash" },
	{ "kernel/events/core.c:9466", NULL, OTHER, "perf pending SIGTRAP id" },
	{ "kernel/events/core.c:9678", NULL, CHAINED, "perf software event hlists" },
	{ "kernel/kprobes.c:381", NULL, CHAINED, "kprobe table" },
	{ "kernel/kprobes.c:1674", NULL, CHAINED, "kprobe table" },
	{ "kernel/locking/lockdep.c:918", NULL, CHAINED, "lockdep class hash" },
	{ "kernel/locking/lockdep.c:1234", NULL, CHAINED, "lockdep key hash" },
	{ "kernel/locking/lockdep.c:1324", NULL, CHAINED, "lockdep class hash" },
	{ "kernel/locking/lockdep.c:3727", NULL, CHAINED, "lockdep chain hash" },
	{ "kernel/locking/lockdep.c:3787", NULL, CHAINED, "lockdep chain hash" },
	/* wake_up_var()'s queues are bit_waitqueue()'s table */
	{ "kernel/sched/wait_bit.c:155", NULL, KB_SITE_NAMED, "bit-waitqueue" },
	/* hash_32(hash32_ptr(sig) ^ nr, ...): two calls on one line */
	{ "kernel/time/posix-timers.c:115", "hash_32", CHAINED, "posix timer hash" },
	{ "kernel/time/posix-timers.c:115", "hash32_ptr", OTHER,
	  "signal_struct word in the posix timer hash" },
	{ "kernel/ucount.c:143", NULL, CHAINED, "ucounts hash" },
	{ "kernel/ucount.c:166", NULL, CHAINED, "ucounts hash" },
	{ "kernel/workqueue.c:1056", NULL, CHAINED, "busy worker hash" },
	{ "kernel/workqueue.c:2223", NULL, CHAINED, "busy worker hash" },
	{ "kernel/workqueue.c:3649", NULL, CHAINED, "unbound pool hash" },
	{ "kernel/workqueue.c:3690", NULL, CHAINED, "unbound pool hash" },
	{ "lib/vsprintf.c:825", NULL, OTHER, "printed for a pointer (debug_boot_weak_hash)" },
	/* a slot is a list searched under the slot's own lock: the list's
	 * length is what a lookup pays */
	{ "mm/highmem.c:732", NULL, CHAINED, "page address slots" },
	/* ALLOC_COVERED_HNEXT: the next counter of a counting Bloom filter */
	{ "mm/kfence/core.c:214", NULL, OTHER, "counting Bloom filter of allocation stacks" },
	{ "mm/kfence/core.c:229", NULL, OTHER, "counting Bloom filter of allocation stacks" },
	{ "net/core/dev.c:212", NULL, CHAINED, "device name hash" },
	{ "net/ipv4/devinet.c:128", NULL, CHAINED, "IPv4 address hash" },
	/* also one input of fib_info_hashfn(); the chains are its own use */
	{ "net/ipv4/fib_semantics.c:327", NULL, CHAINED, "fib_info device hash" },
	{ "net/ipv4/fib_semantics.c:1301", NULL, CHAINED, "fib_info local address hash" },
	{ "net/ipv4/igmp.c:1398", NULL, CHAINED, "multicast group hash" },
	{ "net/ipv4/igmp.c:2742", NULL, CHAINED, "multicast group hash" },
	{ "net/ipv4/ip_tunnel.c:56", NULL, CHAINED, "IP tunnel hash" },
	{ "net/ipv4/route.c:637", NULL, CHAINED, "next-hop exception hash" },
	{ "net/ipv4/tcp_metrics.c:278", NULL, CHAINED, "TCP metrics hash" },
	{ "net/ipv4/tcp_metrics.c:323", NULL, CHAINED, "TCP metrics hash" },
	{ "net/ipv4/tcp_metrics.c:867", NULL, CHAINED, "TCP metrics hash" },
	{ "net/ipv4/tcp_metrics.c:944", NULL, CHAINED, "TCP metrics hash" },
	{ "net/ipv4/udp.c:1578", NULL, LOCKS, "UDP busylocks" },
	{ "net/ipv6/addrconf.c:1030", NULL, CHAINED, "IPv6 address hash" },
	{ "net/ipv6/anycast.c:56", NULL, CHAINED, "IPv6 anycast address hash" },
	{ "net/ipv6/route.c:1551", NULL, CHAINED, "IPv6 route exception hash" },
};

const unsigned kb_census_site_uses_count =
	sizeof(kb_census_site_uses) / sizeof(kb_census_site_uses[0]);

const char *kb_site_kind_name(int kind)
{
	if (kind >= 0 && kind < KB_KIND_COUNT_)
		return kb_table_kind_name((enum kb_table_kind)kind);
	return kind == KB_SITE_OTHER ? "other" : "unknown";
}

const struct kb_census_site_use *kb_census_site_use_find(const char *where,
							  const char *func)
{
	unsigned i;

	for (i = 0; i < kb_census_site_uses_count; i++) {
		const struct kb_census_site_use *u = &kb_census_site_uses[i];

		if (!strcmp(u->where, where) && (!u->func || (func && !strcmp(u->func, func))))
			return u;
	}
	return NULL;
}
