/* SPDX-License-Identifier: MIT */
#include "census_sites.h"

#include <stddef.h>
#include <string.h>

#define CHAINED KB_KIND_CHAINED
#define LOCKS KB_KIND_LOCKS
#define OTHER KB_SITE_OTHER
#define NAMED KB_SITE_NAMED
/* what a neighbour-table word feeds: arp_hashfn() and ndisc_hashfn() xor it
 * into the key and multiply by hash_rnd[0], random and odd (neigh_hash_alloc),
 * and the table takes the product's top bits */
#define NEIGH "xor the key, times a random odd hash_rnd[0]: the top bits pick the bucket"
#define SAME_LINE KB_SITE_FEEDS_SAME_LINE
/* what a fanotify merge key part feeds (fanotify_insert_event) */
#define FANOTIFY "the xor of the merge key's parts, whose low 7 bits pick the merge list"
/* the tree an entry's file:line was read in */
#define K61 "6.1"   /* linux-source-6.1 6.1.192-3 */
#define K612 "6.12" /* linux-source-6.12 6.12.118-1~deb12u1 */

/*
 * Each site as the census records it: a line of a header's inline function
 * stands for every .c file that includes it, and hash_add(),
 * hash_for_each_possible() and hash_min() give the .c line that uses them.
 * fs/inode.c's hash() sites and the btrfs_inode_hash() ones are the
 * inode-hash table's (census.c), so none of them is here.
 */
const struct kb_census_site_use kb_census_site_uses[] = {
	{ K61, "block/elevator.c:223", NULL, CHAINED, "elevator request hash", NULL },
	{ K61, "block/elevator.c:240", NULL, CHAINED, "elevator request hash", NULL },
	{ K61, "fs/btrfs/props.c:33", NULL, CHAINED, "btrfs property handlers", NULL },
	{ K61, "fs/btrfs/props.c:465", NULL, CHAINED, "btrfs property handlers", NULL },
	{ K61, "fs/kernfs/file.c:45", NULL, LOCKS, "kernfs open-file mutexes", NULL },
	{ K61, "fs/locks.c:645", NULL, CHAINED, "blocked POSIX lock owners", NULL },
	{ K61, "fs/locks.c:965", NULL, CHAINED, "blocked POSIX lock owners", NULL },
	/* the name hash itself: the dcache hashes it again into its table */
	{ K61, "fs/namei.c:2109", NULL, OTHER, "32-bit name hash (fold_hash)", NULL },
	{ K61, "include/linux/stringhash.h:55", NULL, OTHER, "32-bit name hash (end_name_hash)", NULL },
	/* one input of a neighbour-table hash that random multipliers mix */
	{ K61, "include/net/arp.h:16", NULL, OTHER, "device word in the ARP neighbour hash", NEIGH },
	{ K61, "include/net/ndisc.h:375", NULL, OTHER, "device word in the NDISC neighbour hash", NEIGH },
	{ K61, "include/net/raw.h:45", NULL, CHAINED, "raw socket hash", NULL },
	{ K61, "kernel/cgroup/cgroup.c:1137", NULL, CHAINED, "css_set hash", NULL },
	{ K61, "kernel/cgroup/cgroup.c:1291", NULL, CHAINED, "css_set hash", NULL },
	{ K61, "kernel/cgroup/cgroup.c:6151", NULL, CHAINED, "css_set hash", NULL },
	{ K61, "kernel/cgroup/cgroup.c:6215", NULL, CHAINED, "css_set hash", NULL },
	{ K61, "kernel/events/core.c:9466", NULL, OTHER, "perf pending SIGTRAP id", NULL },
	{ K61, "kernel/events/core.c:9678", NULL, CHAINED, "perf software event hlists", NULL },
	{ K61, "kernel/kprobes.c:381", NULL, CHAINED, "kprobe table", NULL },
	{ K61, "kernel/kprobes.c:1674", NULL, CHAINED, "kprobe table", NULL },
	{ K61, "kernel/locking/lockdep.c:918", NULL, CHAINED, "lockdep class hash", NULL },
	{ K61, "kernel/locking/lockdep.c:1234", NULL, CHAINED, "lockdep key hash", NULL },
	{ K61, "kernel/locking/lockdep.c:1324", NULL, CHAINED, "lockdep class hash", NULL },
	{ K61, "kernel/locking/lockdep.c:3727", NULL, CHAINED, "lockdep chain hash", NULL },
	{ K61, "kernel/locking/lockdep.c:3787", NULL, CHAINED, "lockdep chain hash", NULL },
	/* wake_up_var()'s queues are bit_waitqueue()'s table */
	{ K61, "kernel/sched/wait_bit.c:155", NULL, NAMED, "bit-waitqueue", NULL },
	/* hash_32(hash32_ptr(sig) ^ nr, ...): two calls on one line */
	{ K61, "kernel/time/posix-timers.c:115", "hash_32", CHAINED, "posix timer hash", NULL },
	{ K61, "kernel/time/posix-timers.c:115", "hash32_ptr", OTHER,
	  "signal_struct word in the posix timer hash", SAME_LINE },
	{ K61, "kernel/ucount.c:143", NULL, CHAINED, "ucounts hash", NULL },
	{ K61, "kernel/ucount.c:166", NULL, CHAINED, "ucounts hash", NULL },
	{ K61, "kernel/workqueue.c:1056", NULL, CHAINED, "busy worker hash", NULL },
	{ K61, "kernel/workqueue.c:2223", NULL, CHAINED, "busy worker hash", NULL },
	{ K61, "kernel/workqueue.c:3649", NULL, CHAINED, "unbound pool hash", NULL },
	{ K61, "kernel/workqueue.c:3690", NULL, CHAINED, "unbound pool hash", NULL },
	{ K61, "lib/vsprintf.c:825", NULL, OTHER, "printed for a pointer (debug_boot_weak_hash)", NULL },
	/* a slot is a list searched under the slot's own lock: the list's
	 * length is what a lookup pays */
	{ K61, "mm/highmem.c:732", NULL, CHAINED, "page address slots", NULL },
	/* ALLOC_COVERED_HNEXT: the next counter of a counting Bloom filter */
	{ K61, "mm/kfence/core.c:214", NULL, OTHER, "counting Bloom filter of allocation stacks", NULL },
	{ K61, "mm/kfence/core.c:229", NULL, OTHER, "counting Bloom filter of allocation stacks", NULL },
	{ K61, "net/core/dev.c:212", NULL, CHAINED, "device name hash", NULL },
	{ K61, "net/ipv4/devinet.c:128", NULL, CHAINED, "IPv4 address hash", NULL },
	/* also one input of fib_info_hashfn(); the chains are its own use */
	{ K61, "net/ipv4/fib_semantics.c:327", NULL, CHAINED, "fib_info device hash", NULL },
	{ K61, "net/ipv4/fib_semantics.c:1301", NULL, CHAINED, "fib_info local address hash", NULL },
	{ K61, "net/ipv4/igmp.c:1398", NULL, CHAINED, "multicast group hash", NULL },
	{ K61, "net/ipv4/igmp.c:2742", NULL, CHAINED, "multicast group hash", NULL },
	{ K61, "net/ipv4/ip_tunnel.c:56", NULL, CHAINED, "IP tunnel hash", NULL },
	{ K61, "net/ipv4/route.c:637", NULL, CHAINED, "next-hop exception hash", NULL },
	{ K61, "net/ipv4/tcp_metrics.c:278", NULL, CHAINED, "TCP metrics hash", NULL },
	{ K61, "net/ipv4/tcp_metrics.c:323", NULL, CHAINED, "TCP metrics hash", NULL },
	{ K61, "net/ipv4/tcp_metrics.c:867", NULL, CHAINED, "TCP metrics hash", NULL },
	{ K61, "net/ipv4/tcp_metrics.c:944", NULL, CHAINED, "TCP metrics hash", NULL },
	{ K61, "net/ipv4/udp.c:1578", NULL, LOCKS, "UDP busylocks", NULL },
	{ K61, "net/ipv6/addrconf.c:1030", NULL, CHAINED, "IPv6 address hash", NULL },
	{ K61, "net/ipv6/anycast.c:56", NULL, CHAINED, "IPv6 anycast address hash", NULL },
	{ K61, "net/ipv6/route.c:1551", NULL, CHAINED, "IPv6 route exception hash", NULL },
	/*
	 * 6.12 (linux-source-6.12 6.12.118-1~deb12u1): the same uses at
	 * their new lines, and the sites its wider workload reaches.
	 */
	{ K612, "block/elevator.c:183", NULL, CHAINED, "elevator request hash", NULL },
	{ K612, "block/elevator.c:200", NULL, CHAINED, "elevator request hash", NULL },
	{ K612, "drivers/md/dm-cache-policy-smq.c:626", NULL, CHAINED, "dm-cache smq block hash", NULL },
	{ K612, "drivers/md/dm-cache-policy-smq.c:662", NULL, CHAINED, "dm-cache smq block hash", NULL },
	{ K612, "drivers/md/dm-cache-policy-smq.c:679", NULL, CHAINED, "dm-cache smq block hash", NULL },
	/* the low bits pick a level for a mapping loaded from metadata: no bucket */
	{ K612, "drivers/md/dm-cache-policy-smq.c:1563", NULL, OTHER, "smq level of a loaded mapping", NULL },
	/* a direct-mapped set: a second block in a slot is dropped, not chained */
	{ K612, "drivers/md/persistent-data/dm-transaction-manager.c:34", NULL, OTHER,
	  "dm prefetch set slot", NULL },
	/* I/O and resync in one bucket wait for each other, like a lock's holders */
	{ K612, "drivers/md/raid1.h:214", NULL, LOCKS, "raid1 barrier buckets", NULL },
	{ K612, "drivers/net/geneve.c:93", NULL, CHAINED, "geneve VNI hash", NULL },
	{ K612, "drivers/net/macvlan.c:111", NULL, CHAINED, "macvlan port address hash", NULL },
	/* a collision sets the same filter bit: a packet let through, no chain */
	{ K612, "drivers/net/macvlan.c:260", NULL, OTHER, "macvlan multicast filter bit", NULL },
	{ K612, "drivers/net/vrf.c:188", NULL, CHAINED, "VRF table-id map", NULL },
	{ K612, "drivers/net/vrf.c:202", NULL, CHAINED, "VRF table-id map", NULL },
	{ K612, "drivers/net/vxlan/vxlan_core.c:384", NULL, CHAINED, "VXLAN forwarding database", NULL },
	{ K612, "drivers/net/vxlan/vxlan_private.h:48", NULL, CHAINED, "VXLAN VNI hash", NULL },
	{ K612, "drivers/net/vxlan/vxlan_private.h:56", NULL, CHAINED, "VXLAN socket port hash", NULL },
	{ K612, "drivers/vhost/vsock.c:74", NULL, CHAINED, "vhost-vsock guest cid hash", NULL },
	{ K612, "drivers/vhost/vsock.c:797", NULL, CHAINED, "vhost-vsock guest cid hash", NULL },
	{ K612, "fs/btrfs/props.c:39", NULL, CHAINED, "btrfs property handlers", NULL },
	{ K612, "fs/btrfs/props.c:471", NULL, CHAINED, "btrfs property handlers", NULL },
	{ K612, "fs/btrfs/raid56.c:292", NULL, NAMED, "btrfs-raid56", NULL },
	{ K612, "fs/dcache.c:123", NULL, NAMED, "in-lookup-hash", NULL },
	{ K612, "fs/exfat/inode.c:572", NULL, CHAINED, "exFAT inode hash", NULL },
	{ K612, "fs/fat/fat.h:438", NULL, CHAINED, "FAT directory inode hash", NULL },
	{ K612, "fs/fat/inode.c:388", NULL, CHAINED, "FAT inode hash", NULL },
	{ K612, "fs/kernfs/file.c:45", NULL, LOCKS, "kernfs open-file mutexes", NULL },
	{ K612, "fs/locks.c:679", NULL, CHAINED, "blocked POSIX lock owners", NULL },
	{ K612, "fs/locks.c:1031", NULL, CHAINED, "blocked POSIX lock owners", NULL },
	{ K612, "fs/mbcache.c:53", NULL, CHAINED, "mbcache entry hash", NULL },
	/* i386 only: the name hash itself, which the dcache hashes again */
	{ K612, "fs/namei.c:2169", NULL, OTHER, "32-bit name hash (fold_hash)", NULL },
	/* a cookie's page index in the directory's page cache: a collision
	 * evicts a page, it lengthens no chain */
	{ K612, "fs/nfs/dir.c:365", NULL, OTHER, "NFS readdir page index of a cookie", NULL },
	/* parts xored into one EXPKEY/EXPORT_HASHBITS-wide bucket */
	{ K612, "fs/nfsd/export.c:281", NULL, CHAINED, "nfsd export key cache", NULL },
	{ K612, "fs/nfsd/export.c:904", NULL, CHAINED, "nfsd export cache", NULL },
	{ K612, "fs/nfsd/export.c:905", NULL, CHAINED, "nfsd export cache", NULL },
	{ K612, "fs/nfsd/export.c:906", NULL, CHAINED, "nfsd export cache", NULL },
	{ K612, "fs/nfsd/nfs4idmap.c:117", NULL, CHAINED, "nfsd id map cache", NULL },
	{ K612, "fs/nfsd/nfscache.c:254", NULL, CHAINED, "nfsd reply cache", NULL },
	/* parts of a 29-bit merge key whose low 7 bits, after the xor of all
	 * parts, pick the merge list: not the bits judged */
	{ K612, "fs/notify/fanotify/fanotify.c:27", NULL, OTHER, "fanotify merge key part (path)", FANOTIFY },
	{ K612, "fs/notify/fanotify/fanotify.c:28", NULL, OTHER, "fanotify merge key part (path)", FANOTIFY },
	{ K612, "fs/notify/fanotify/fanotify.c:33", NULL, OTHER, "fanotify merge key part (fsid)", FANOTIFY },
	{ K612, "fs/notify/fanotify/fanotify.c:34", NULL, OTHER, "fanotify merge key part (fsid)", FANOTIFY },
	{ K612, "fs/notify/fanotify/fanotify.c:835", NULL, OTHER, "fanotify merge key part (pid)", FANOTIFY },
	{ K612, "include/linux/stringhash.h:55", NULL, OTHER, "32-bit name hash (end_name_hash)", NULL },
	{ K612, "include/net/arp.h:16", NULL, OTHER, "device word in the ARP neighbour hash", NEIGH },
	{ K612, "include/net/ndisc.h:360", NULL, OTHER, "device word in the NDISC neighbour hash", NEIGH },
	{ K612, "include/net/raw.h:45", NULL, CHAINED, "raw socket hash", NULL },
	/* works of one value never run at once: a slot serialises like a lock */
	{ K612, "io_uring/io-wq.c:1075", NULL, LOCKS, "io-wq hashed-work serialisation", NULL },
	{ K612, "io_uring/napi.c:50", NULL, CHAINED, "io_uring NAPI id hash", NULL },
	{ K612, "io_uring/poll.c:124", NULL, CHAINED, "io_uring poll cancel table", NULL },
	{ K612, "io_uring/poll.c:135", NULL, CHAINED, "io_uring poll cancel table", NULL },
	{ K612, "io_uring/poll.c:146", NULL, CHAINED, "io_uring poll cancel table", NULL },
	{ K612, "io_uring/poll.c:849", NULL, CHAINED, "io_uring poll cancel table", NULL },
	{ K612, "io_uring/poll.c:925", NULL, CHAINED, "io_uring poll cancel table", NULL },
	{ K612, "kernel/bpf/bpf_local_storage.c:24", NULL, CHAINED, "BPF local storage buckets", NULL },
	{ K612, "kernel/bpf/trampoline.c:145", NULL, CHAINED, "BPF trampoline table", NULL },
	{ K612, "kernel/cgroup/cgroup.c:1106", NULL, CHAINED, "css_set hash", NULL },
	{ K612, "kernel/cgroup/cgroup.c:1260", NULL, CHAINED, "css_set hash", NULL },
	{ K612, "kernel/cgroup/cgroup.c:6271", NULL, CHAINED, "css_set hash", NULL },
	{ K612, "kernel/cgroup/cgroup.c:6335", NULL, CHAINED, "css_set hash", NULL },
	{ K612, "kernel/events/core.c:9926", NULL, OTHER, "perf pending SIGTRAP id", NULL },
	{ K612, "kernel/events/core.c:10142", NULL, CHAINED, "perf software event hlists", NULL },
	{ K612, "kernel/kprobes.c:381", NULL, CHAINED, "kprobe table", NULL },
	{ K612, "kernel/kprobes.c:1684", NULL, CHAINED, "kprobe table", NULL },
	{ K612, "kernel/locking/lockdep.c:922", NULL, CHAINED, "lockdep class hash", NULL },
	{ K612, "kernel/locking/lockdep.c:1240", NULL, CHAINED, "lockdep key hash", NULL },
	{ K612, "kernel/locking/lockdep.c:1330", NULL, CHAINED, "lockdep class hash", NULL },
	{ K612, "kernel/locking/lockdep.c:3758", NULL, CHAINED, "lockdep chain hash", NULL },
	{ K612, "kernel/locking/lockdep.c:3822", NULL, CHAINED, "lockdep chain hash", NULL },
	{ K612, "kernel/module/main.c:3320", NULL, CHAINED, "idempotent module-load hash", NULL },
	{ K612, "kernel/module/main.c:3352", NULL, CHAINED, "idempotent module-load hash", NULL },
	{ K612, "kernel/sched/wait_bit.c:155", NULL, NAMED, "bit-waitqueue", NULL },
	{ K612, "kernel/time/posix-timers.c:72", "hash_32", CHAINED, "posix timer hash", NULL },
	{ K612, "kernel/time/posix-timers.c:72", "hash32_ptr", OTHER,
	  "signal_struct word in the posix timer hash", SAME_LINE },
	{ K612, "kernel/trace/ftrace.c:1148", NULL, NAMED, "ftrace-hash", NULL },
	{ K612, "kernel/ucount.c:143", NULL, CHAINED, "ucounts hash", NULL },
	{ K612, "kernel/ucount.c:166", NULL, CHAINED, "ucounts hash", NULL },
	{ K612, "kernel/workqueue.c:1121", NULL, CHAINED, "busy worker hash", NULL },
	{ K612, "kernel/workqueue.c:3192", NULL, CHAINED, "busy worker hash", NULL },
	{ K612, "kernel/workqueue.c:5055", NULL, CHAINED, "unbound pool hash", NULL },
	{ K612, "kernel/workqueue.c:5087", NULL, CHAINED, "unbound pool hash", NULL },
	{ K612, "lib/debugobjects.c:492", NULL, CHAINED, "debug object buckets", NULL },
	{ K612, "lib/vsprintf.c:823", NULL, OTHER, "printed for a pointer (debug_boot_weak_hash)", NULL },
	{ K612, "mm/filemap.c:1060", NULL, NAMED, "folio-waitqueue", NULL },
	{ K612, "mm/highmem.c:745", NULL, CHAINED, "page address slots", NULL },
	{ K612, "mm/kfence/core.c:225", NULL, OTHER, "counting Bloom filter of allocation stacks", NULL },
	{ K612, "mm/kfence/core.c:240", NULL, OTHER, "counting Bloom filter of allocation stacks", NULL },
	{ K612, "mm/khugepaged.c:456", NULL, CHAINED, "khugepaged mm slots", NULL },
	{ K612, "mm/khugepaged.c:488", NULL, CHAINED, "khugepaged mm slots", NULL },
	{ K612, "mm/ksm.c:2992", NULL, CHAINED, "KSM mm slots", NULL },
	{ K612, "mm/ksm.c:3035", NULL, CHAINED, "KSM mm slots", NULL },
	{ K612, "net/core/dev.c:196", NULL, CHAINED, "device name hash", NULL },
	{ K612, "net/ipv4/devinet.c:128", NULL, CHAINED, "IPv4 address hash", NULL },
	{ K612, "net/ipv4/fib_semantics.c:327", NULL, CHAINED, "fib_info device hash", NULL },
	{ K612, "net/ipv4/fib_semantics.c:1300", NULL, CHAINED, "fib_info local address hash", NULL },
	{ K612, "net/ipv4/igmp.c:1434", NULL, CHAINED, "multicast group hash", NULL },
	{ K612, "net/ipv4/igmp.c:2796", NULL, CHAINED, "multicast group hash", NULL },
	{ K612, "net/ipv4/ip_tunnel.c:56", NULL, CHAINED, "IP tunnel hash", NULL },
	{ K612, "net/ipv4/route.c:625", NULL, CHAINED, "next-hop exception hash", NULL },
	{ K612, "net/ipv4/tcp_metrics.c:278", NULL, CHAINED, "TCP metrics hash", NULL },
	{ K612, "net/ipv4/tcp_metrics.c:323", NULL, CHAINED, "TCP metrics hash", NULL },
	{ K612, "net/ipv4/tcp_metrics.c:871", NULL, CHAINED, "TCP metrics hash", NULL },
	{ K612, "net/ipv4/tcp_metrics.c:951", NULL, CHAINED, "TCP metrics hash", NULL },
	{ K612, "net/ipv4/udp.c:1555", NULL, LOCKS, "UDP busylocks", NULL },
	{ K612, "net/ipv6/addrconf.c:1026", NULL, CHAINED, "IPv6 address hash", NULL },
	{ K612, "net/ipv6/anycast.c:56", NULL, CHAINED, "IPv6 anycast address hash", NULL },
	{ K612, "net/ipv6/ip6_gre.c:105", NULL, CHAINED, "ip6gre tunnel hash", NULL },
	{ K612, "net/ipv6/ip6_tunnel.c:75", NULL, CHAINED, "IPv6 tunnel hash", NULL },
	{ K612, "net/ipv6/route.c:1569", NULL, CHAINED, "IPv6 route exception hash", NULL },
	{ K612, "net/l2tp/l2tp_core.c:274", NULL, CHAINED, "L2TPv3 collided session hash", NULL },
	{ K612, "net/l2tp/l2tp_core.c:404", NULL, CHAINED, "L2TPv3 collided session hash", NULL },
	{ K612, "net/l2tp/l2tp_core.c:512", NULL, CHAINED, "L2TPv3 collided session hash", NULL },
	{ K612, "net/l2tp/l2tp_core.c:516", NULL, CHAINED, "L2TPv3 collided session hash", NULL },
	/* seeds of keyed hashes (jhash, siphash) that mix them again */
	{ K612, "net/netfilter/nf_tables_api.c:1361", NULL, OTHER, "table word in the nft object hash seed",
	  "jhash of the object's name, as its seed (nft_objname_hash)" },
	{ K612, "net/netfilter/nf_tables_trace.c:319", NULL, OTHER, "skb word in the nft trace id",
	  "siphash_3u32 of it, the skb's hash and iif: the trace id (nft_trace_init)" },
	{ K612, "net/sched/cls_api.c:184", NULL, CHAINED, "tc filter proto destroy hash", NULL },
	{ K612, "net/sched/cls_api.c:205", NULL, CHAINED, "tc filter proto destroy hash", NULL },
	{ K612, "net/sched/cls_u32.c:348", NULL, CHAINED, "u32 classifier shared hash", NULL },
	{ K612, "net/sched/sch_api.c:272", NULL, CHAINED, "device qdisc hash", NULL },
	{ K612, "net/sched/sch_api.c:284", NULL, CHAINED, "device qdisc hash", NULL },
	{ K612, "net/sched/sch_fq.c:401", NULL, NAMED, "sch-fq", NULL },
	{ K612, "net/sched/sch_fq.c:852", NULL, NAMED, "sch-fq", NULL },
	{ K612, "net/sunrpc/auth_gss/auth_gss.c:1179", NULL, CHAINED, "gss_auth hash", NULL },
	{ K612, "net/sunrpc/auth_gss/auth_gss.c:1200", NULL, CHAINED, "gss_auth hash", NULL },
	{ K612, "net/sunrpc/auth_gss/auth_gss.c:1367", NULL, CHAINED, "RPC credential cache", NULL },
	{ K612, "net/sunrpc/svcauth_unix.c:119", NULL, CHAINED, "sunrpc IP map cache", NULL },
	{ K612, "net/sunrpc/svcauth_unix.c:417", NULL, CHAINED, "sunrpc unix gid cache", NULL },
};

const unsigned kb_census_site_uses_count =
	sizeof(kb_census_site_uses) / sizeof(kb_census_site_uses[0]);

const char *kb_site_kind_name(int kind)
{
	if (kind >= 0 && kind < KB_KIND_COUNT_)
		return kb_table_kind_name((enum kb_table_kind)kind);
	return kind == KB_SITE_OTHER ? "other" : "unknown";
}

/* Whether a dotted version ("6.12.118") is of the major.minor `kernel`
 * ("6.12"): the character after it must end the number, or "6.1" would
 * take 6.12 and 6.10 as its own. */
static int same_kernel(const char *version, const char *kernel)
{
	size_t n = strlen(kernel);

	return !strncmp(version, kernel, n) && (version[n] == '\0' || version[n] == '.');
}

const struct kb_census_site_use *kb_census_site_use_find(const char *kernel,
							  const char *where,
							  const char *func)
{
	unsigned i;

	/* a census naming no kernel: the fixtures and the first 6.1 files,
	 * read in 6.1 */
	if (!kernel)
		kernel = K61;
	for (i = 0; i < kb_census_site_uses_count; i++) {
		const struct kb_census_site_use *u = &kb_census_site_uses[i];

		if (same_kernel(kernel, u->kernel) && !strcmp(u->where, where) &&
		    (!u->func || (func && !strcmp(u->func, func))))
			return u;
	}
	return NULL;
}
