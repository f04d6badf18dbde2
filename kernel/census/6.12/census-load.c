// SPDX-License-Identifier: GPL-2.0
/*
 * census-load: the parts of the 6.12 census workload that no packaged
 * tool drives with a shell line: io_uring (poll, file writes through
 * io-wq, a single-issuer ring's locked table and cancel-all), fanotify,
 * KSM and THP, contended flock and POSIX locks, multicast over loopback
 * (IPv4 and IPv6), perf software events, POSIX timers, a BPF map and
 * socket filter, raw sockets of many protocols, UDP receive queues under
 * pressure and vhost-vsock guest ids.  Where a table is keyed by a
 * process's object (files_struct, signal_struct, pid), the part runs in
 * many processes alive at once, so the keys are distinct objects and not
 * one slab slot reused.  Built static on the host by
 * collect.sh (gcc -static), run by init.sh in the guest as
 * `census-load DIR` with DIR a writable folder.  Each part prints one
 * line "census-load: <part> ok|failed: <why>" and never stops the rest:
 * a kernel without the feature only loses that part.  Meant for the
 * census guest only: it changes KSM and THP settings and opens vhost
 * devices; never run it on a development machine.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/icmp6.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>
#include <netinet/ip_icmp.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/io_uring.h>
#include <linux/perf_event.h>
#include <linux/vhost.h>
#include <poll.h>
#include <sched.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *dir;

static int report(const char *part, int ok, const char *why)
{
	if (ok)
		printf("census-load: %s ok\n", part);
	else
		printf("census-load: %s failed: %s\n", part, why);
	fflush(stdout);
	return ok;
}

static void path_in(char *buf, size_t n, const char *name, int i)
{
	snprintf(buf, n, "%s/%s-%d", dir, name, i);
}

/* --- io_uring: poll requests on pipes, writes and reads of a file ----- */
struct ring {
	int fd;
	unsigned *sq_head, *sq_tail, *sq_mask, *sq_array;
	unsigned *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

static int ring_setup(struct ring *r, unsigned entries, unsigned flags)
{
	struct io_uring_params p;
	char *sq, *cq;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	r->fd = (int)syscall(__NR_io_uring_setup, entries, &p);
	if (r->fd < 0)
		return -1;
	sq = mmap(NULL, p.sq_off.array + p.sq_entries * sizeof(unsigned),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		  IORING_OFF_SQ_RING);
	cq = mmap(NULL, p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		  IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		       IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || r->sqes == MAP_FAILED)
		return -1;
	r->sq_head = (unsigned *)(sq + p.sq_off.head);
	r->sq_tail = (unsigned *)(sq + p.sq_off.tail);
	r->sq_mask = (unsigned *)(sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned *)(sq + p.sq_off.array);
	r->cq_head = (unsigned *)(cq + p.cq_off.head);
	r->cq_tail = (unsigned *)(cq + p.cq_off.tail);
	r->cq_mask = (unsigned *)(cq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	return 0;
}

static struct io_uring_sqe *ring_sqe(struct ring *r)
{
	unsigned tail = *r->sq_tail, i = tail & *r->sq_mask;
	struct io_uring_sqe *sqe = &r->sqes[i];

	memset(sqe, 0, sizeof(*sqe));
	r->sq_array[i] = i;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
	return sqe;
}

static int ring_submit_wait(struct ring *r, unsigned submit, unsigned wait)
{
	int n = (int)syscall(__NR_io_uring_enter, r->fd, submit, wait,
			     IORING_ENTER_GETEVENTS, NULL, 0);
	unsigned head = *r->cq_head;

	while (head != __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE))
		head++;
	__atomic_store_n(r->cq_head, head, __ATOMIC_RELEASE);
	return n;
}

/* children that wait for the parent to close the write end of a pipe */
static int gate[2];

static void gate_open(void)
{
	if (pipe(gate) < 0)
		gate[0] = gate[1] = -1;
}

static void gate_wait(void)	/* in a child */
{
	char c;

	close(gate[1]);
	if (read(gate[0], &c, 1) < 0)
		c = 0;
}

static void gate_leave(void)	/* in a child that does not wait */
{
	close(gate[0]);
	close(gate[1]);
}

static void gate_release(void)	/* in the parent: every child goes on */
{
	close(gate[0]);
	close(gate[1]);
	while (wait(NULL) > 0)
		;
}

static void do_io_uring(void)
{
	struct ring r;
	int pipes[16][2], files[32], i, round;
	char buf[4096], name[256];

	if (ring_setup(&r, 64, 0) < 0) {
		report("io_uring", 0, strerror(errno));
		return;
	}
	for (i = 0; i < 32; i++) {	/* io-wq hashes buffered writes by inode */
		path_in(name, sizeof(name), "uring", i);
		files[i] = open(name, O_RDWR | O_CREAT | O_TRUNC, 0644);
	}
	for (i = 0; i < 16; i++)
		if (pipe(pipes[i]) < 0)
			return (void)report("io_uring", 0, "pipe");
	memset(buf, 'u', sizeof(buf));
	for (round = 0; round < 200; round++) {
		struct io_uring_sqe *sqe;

		for (i = 0; i < 16; i++) {	/* poll the pipes */
			sqe = ring_sqe(&r);
			sqe->opcode = IORING_OP_POLL_ADD;
			sqe->fd = pipes[i][0];
			sqe->poll32_events = POLLIN;
			sqe->user_data = (uint64_t)round << 8 | (unsigned)i;
		}
		ring_submit_wait(&r, 16, 0);
		for (i = 0; i < 8; i++) {	/* cancel half of them */
			sqe = ring_sqe(&r);
			sqe->opcode = IORING_OP_POLL_REMOVE;
			sqe->addr = (uint64_t)round << 8 | (unsigned)i;
		}
		for (i = 0; i < 8; i++) {	/* buffered writes: io-wq, hashed */
			sqe = ring_sqe(&r);
			sqe->opcode = IORING_OP_WRITE;
			sqe->fd = files[(round * 8 + i) % 32];
			sqe->addr = (uintptr_t)buf;
			sqe->len = sizeof(buf);
			sqe->off = (uint64_t)round * sizeof(buf);
		}
		ring_submit_wait(&r, 16, 8);
		for (i = 8; i < 16; i++)	/* wake the other half */
			if (write(pipes[i][1], "x", 1) != 1 || read(pipes[i][0], buf, 1) != 1)
				break;
		ring_submit_wait(&r, 0, 1);
	}
	for (i = 0; i < 32; i++)
		close(files[i]);
	close(r.fd);
	/*
	 * A single-issuer ring keeps poll requests in its mutex-protected
	 * table; reads of empty pipes arm async poll there too; a cancel of
	 * every request with one user_data looks up one bucket of both tables.
	 */
	if (ring_setup(&r, 64, IORING_SETUP_SINGLE_ISSUER) < 0)
		return (void)report("io_uring", 0, "single issuer");
	for (round = 0; round < 100; round++) {
		struct io_uring_sqe *sqe;

		for (i = 0; i < 8; i++) {
			sqe = ring_sqe(&r);
			sqe->opcode = IORING_OP_POLL_ADD;
			sqe->fd = pipes[i][0];
			sqe->poll32_events = POLLIN;
			sqe->user_data = (uint64_t)round << 8 | (unsigned)i | 1u << 31;
			sqe = ring_sqe(&r);
			sqe->opcode = IORING_OP_READ;
			sqe->fd = pipes[i + 8][0];
			sqe->addr = (uintptr_t)buf;
			sqe->len = 1;
			sqe->user_data = (uint64_t)round << 8 | (unsigned)i | 1u << 30;
		}
		ring_submit_wait(&r, 16, 0);
		for (i = 0; i < 8; i++) {
			sqe = ring_sqe(&r);
			sqe->opcode = IORING_OP_ASYNC_CANCEL;
			sqe->cancel_flags = IORING_ASYNC_CANCEL_ALL;
			sqe->addr = (uint64_t)round << 8 | (unsigned)i | 1u << 31;
		}
		ring_submit_wait(&r, 8, 8);
		for (i = 8; i < 16; i++)	/* complete the reads */
			if (write(pipes[i][1], "x", 1) != 1)
				break;
		ring_submit_wait(&r, 0, 8);
	}
	close(r.fd);
	for (i = 0; i < 16; i++) {
		close(pipes[i][0]);
		close(pipes[i][1]);
	}
	report("io_uring", 1, "");
}

/* --- fanotify: path events and fid events on DIR ---------------------- */
static void do_fanotify(void)
{
	int g1, g2, i, f, c;
	char name[256], buf[8192];

	g1 = fanotify_init(FAN_CLASS_NOTIF | FAN_NONBLOCK, O_RDONLY);
	g2 = fanotify_init(FAN_CLASS_NOTIF | FAN_NONBLOCK | FAN_REPORT_DFID_NAME,
			   O_RDONLY);
	if (g1 < 0)
		return (void)report("fanotify", 0, strerror(errno));
	if (fanotify_mark(g1, FAN_MARK_ADD | FAN_MARK_MOUNT,
			  FAN_OPEN | FAN_CLOSE_WRITE | FAN_MODIFY | FAN_ACCESS,
			  AT_FDCWD, dir) < 0)
		return (void)report("fanotify", 0, strerror(errno));
	if (g2 >= 0)
		fanotify_mark(g2, FAN_MARK_ADD | FAN_MARK_FILESYSTEM,
			      FAN_CREATE | FAN_DELETE | FAN_MODIFY | FAN_ONDIR,
			      AT_FDCWD, dir);
	/* 24 processes: the merge key mixes in the pid of each event */
	gate_open();
	for (c = 0; c < 24; c++) {
		if (fork() != 0)
			continue;
		for (i = c; i < 600; i += 24) {
			path_in(name, sizeof(name), "fan", i % 150);
			f = open(name, O_RDWR | O_CREAT, 0644);
			if (f >= 0) {
				if (write(f, name, 8) < 0 || read(f, buf, 8) < 0)
					i += 0;
				close(f);
			}
		}
		gate_wait();
		_exit(0);
	}
	usleep(500000);
	while (read(g1, buf, sizeof(buf)) > 0)
		;
	while (g2 >= 0 && read(g2, buf, sizeof(buf)) > 0)
		;
	gate_release();
	for (i = 0; i < 150; i++) {
		path_in(name, sizeof(name), "fan", i);
		unlink(name);
	}
	close(g1);
	if (g2 >= 0)
		close(g2);
	report("fanotify", 1, "");
}

/* --- KSM and THP: children with mergeable and huge-page areas --------- */
static void put(const char *file, const char *text)
{
	int f = open(file, O_WRONLY);

	if (f >= 0) {
		if (write(f, text, strlen(text)) < 0)
			f += 0;
		close(f);
	}
}

static void do_ksm_thp(void)
{
	int c, ok = 1;

	put("/sys/kernel/mm/ksm/pages_to_scan", "2000");
	put("/sys/kernel/mm/ksm/sleep_millisecs", "10");
	put("/sys/kernel/mm/ksm/run", "1");
	put("/sys/kernel/mm/transparent_hugepage/enabled", "madvise");
	put("/sys/kernel/mm/transparent_hugepage/khugepaged/scan_sleep_millisecs", "10");
	for (c = 0; c < 24; c++) {	/* 24 mm_structs to scan */
		pid_t pid = fork();

		if (pid == 0) {
			size_t len = 4 << 20, i;
			char *a = mmap(NULL, len, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			char *h = mmap(NULL, len, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (a == MAP_FAILED || h == MAP_FAILED)
				_exit(1);
			for (i = 0; i < len; i += 4096)
				a[i] = (char)(i / 4096 % 4);
			if (madvise(a, len, MADV_MERGEABLE) != 0 ||
			    madvise(h, len, MADV_HUGEPAGE) != 0)
				_exit(2);
			for (i = 0; i < len; i += 4096)
				h[i] = 1;
			sleep(3);
			madvise(a, len, MADV_UNMERGEABLE);
			_exit(0);
		}
		if (pid < 0)
			ok = 0;
	}
	for (;;) {
		int st;

		if (wait(&st) < 0)
			break;
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			ok = 0;
	}
	put("/sys/kernel/mm/ksm/run", "2");
	report("ksm+thp", ok, "fork, mmap or madvise failed in a child");
}

/* --- locks: blocked flock and POSIX locks, so waiters are hashed ------ */
/*
 * 20 holders each lock a range, 20 waiters block on them (the blocked
 * hash is keyed by the waiter's files_struct, the deadlock check looks
 * up the holder's), and 20 flock waiters queue behind the holders' flocks.
 */
static void do_locks(void)
{
	int i, ok = 1;
	char name[256];

	path_in(name, sizeof(name), "lock", 0);
	close(open(name, O_RDWR | O_CREAT, 0644));
	gate_open();
	for (i = 0; i < 20; i++) {
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
				    .l_start = i * 10, .l_len = 10 };
		char fname[256];
		int f;

		if (fork() != 0)
			continue;
		f = open(name, O_RDWR);
		path_in(fname, sizeof(fname), "flock", i);
		if (f < 0 || fcntl(f, F_SETLK, &fl) < 0)
			_exit(1);
		flock(open(fname, O_RDWR | O_CREAT, 0644), LOCK_EX);
		gate_wait();
		_exit(0);
	}
	usleep(300000);
	for (i = 0; i < 40; i++) {
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
				    .l_start = i % 20 * 10, .l_len = 10 };
		char fname[256];
		pid_t pid = fork();

		if (pid < 0)
			ok = 0;
		if (pid != 0)
			continue;
		gate_leave();
		if (i < 20) {
			int f = open(name, O_RDWR);

			fcntl(f, F_SETLKW, &fl);	/* blocks until released */
		} else {
			path_in(fname, sizeof(fname), "flock", i % 20);
			flock(open(fname, O_RDWR), LOCK_EX);
		}
		_exit(0);
	}
	usleep(500000);
	gate_release();
	report("locks", ok, "fork");
}

/* --- multicast: many groups joined on lo, datagrams sent to them ------ */
static void do_multicast(void)
{
	int s = socket(AF_INET, SOCK_DGRAM, 0), s6 = socket(AF_INET6, SOCK_DGRAM, 0);
	int r = socket(AF_INET, SOCK_DGRAM, 0), i, one = 1, joined = 0;
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(5600) };
	struct sockaddr_in6 to6 = { .sin6_family = AF_INET6, .sin6_port = htons(5601) };
	struct in_addr lo = { htonl(INADDR_LOOPBACK) };

	if (s < 0 || r < 0)
		return (void)report("multicast", 0, strerror(errno));
	setsockopt(r, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	to.sin_addr.s_addr = htonl(INADDR_ANY);
	bind(r, (struct sockaddr *)&to, sizeof(to));
	setsockopt(s, IPPROTO_IP, IP_MULTICAST_IF, &lo, sizeof(lo));
	setsockopt(s, IPPROTO_IP, IP_MULTICAST_LOOP, &one, sizeof(one));
	for (i = 0; i < 64; i++) {
		struct ip_mreq m = { .imr_interface = lo };
		struct ipv6_mreq m6 = { .ipv6mr_interface = 1 };

		m.imr_multiaddr.s_addr = htonl(0xef010000u + (unsigned)i * 7);
		joined += setsockopt(r, IPPROTO_IP, IP_ADD_MEMBERSHIP, &m, sizeof(m)) == 0;
		inet_pton(AF_INET6, "ff15::1", &m6.ipv6mr_multiaddr);
		m6.ipv6mr_multiaddr.s6_addr[15] = (unsigned char)i;
		if (s6 >= 0)
			setsockopt(s6, IPPROTO_IPV6, IPV6_ADD_MEMBERSHIP, &m6, sizeof(m6));
	}
	for (i = 0; i < 640; i++) {
		to.sin_addr.s_addr = htonl(0xef010000u + (unsigned)(i % 64) * 7);
		sendto(s, "mc", 2, MSG_DONTWAIT, (struct sockaddr *)&to, sizeof(to));
		if (s6 >= 0) {
			inet_pton(AF_INET6, "ff15::1", &to6.sin6_addr);
			to6.sin6_addr.s6_addr[15] = (unsigned char)(i % 64);
			to6.sin6_scope_id = 1;
			sendto(s6, "mc", 2, MSG_DONTWAIT, (struct sockaddr *)&to6, sizeof(to6));
		}
	}
	close(s);
	close(r);
	if (s6 >= 0)
		close(s6);
	report("multicast", joined > 0, "no group joined");
}

/* --- perf: software events counting and sampling this process -------- */
static void do_perf(void)
{
	static const int ids[] = { PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_TASK_CLOCK,
				   PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_CONTEXT_SWITCHES,
				   PERF_COUNT_SW_CPU_MIGRATIONS, PERF_COUNT_SW_PAGE_FAULTS_MIN };
	int fds[6], i, n = 0;

	for (i = 0; i < 6; i++) {
		struct perf_event_attr a;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = (uint64_t)ids[i];
		a.sample_period = i % 2 ? 0 : 10;
		a.exclude_kernel = 1;
		fds[i] = (int)syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
		n += fds[i] >= 0;
	}
	for (i = 0; i < 50; i++) {
		char *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		size_t j;

		if (p == MAP_FAILED)
			break;
		for (j = 0; j < 1 << 20; j += 4096)
			p[j] = 1;
		munmap(p, 1 << 20);
		sched_yield();
	}
	for (i = 0; i < 6; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	report("perf", n > 0, strerror(errno));
}

/* --- POSIX timers: 32 processes with 8 timers each, alive at once ----- */
static void do_timers(void)
{
	int c, ok = 1;

	gate_open();
	for (c = 0; c < 32; c++) {
		timer_t t[8];
		struct sigevent ev = { .sigev_notify = SIGEV_NONE };
		struct itimerspec its = { .it_value = { 5, 0 } }, cur;
		int i, n = 0;
		pid_t pid = fork();

		if (pid < 0)
			ok = 0;
		if (pid != 0)
			continue;
		for (i = 0; i < 8; i++)
			if (syscall(__NR_timer_create, CLOCK_MONOTONIC, &ev, &t[n]) == 0)
				n++;
		for (i = 0; i < n * 5; i++) {
			syscall(__NR_timer_settime, t[i % n], 0, &its, NULL);
			syscall(__NR_timer_gettime, t[(i * 3) % n], &cur);
		}
		gate_wait();
		for (i = 0; i < n; i++)
			syscall(__NR_timer_delete, t[i]);
		_exit(n > 0 ? 0 : 1);
	}
	usleep(300000);
	gate_release();
	report("posix-timers", ok, "fork");
}

/* --- BPF: a hash map and a socket filter ------------------------------ */
static long bpf(int cmd, union bpf_attr *a)
{
	return syscall(__NR_bpf, cmd, a, sizeof(*a));
}

static void do_bpf(void)
{
	struct bpf_insn prog[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = -1 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr a;
	int map, pf, s[2], i;
	uint32_t k;
	uint64_t v;

	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_HASH;
	a.key_size = 4;
	a.value_size = 8;
	a.max_entries = 1024;
	map = (int)bpf(BPF_MAP_CREATE, &a);
	for (i = 0; map >= 0 && i < 1000; i++) {
		k = (uint32_t)i * 2654435761u;
		v = (uint64_t)i;
		memset(&a, 0, sizeof(a));
		a.map_fd = (uint32_t)map;
		a.key = (uintptr_t)&k;
		a.value = (uintptr_t)&v;
		bpf(BPF_MAP_UPDATE_ELEM, &a);
	}
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insns = (uintptr_t)prog;
	a.insn_cnt = 2;
	a.license = (uintptr_t)"GPL";
	pf = (int)bpf(BPF_PROG_LOAD, &a);
	if (pf >= 0 && socketpair(AF_UNIX, SOCK_DGRAM, 0, s) == 0) {
		setsockopt(s[0], SOL_SOCKET, SO_ATTACH_BPF, &pf, sizeof(pf));
		for (i = 0; i < 100; i++)
			if (send(s[1], "b", 1, 0) < 0 || recv(s[0], &v, 1, 0) < 0)
				break;
		close(s[0]);
		close(s[1]);
	}
	report("bpf", map >= 0 && pf >= 0, strerror(errno));
	if (map >= 0)
		close(map);
	if (pf >= 0)
		close(pf);
}

/* --- raw sockets: one per protocol, IPv4 and IPv6, a datagram to each -- */
static void do_raw(void)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_addr = { htonl(INADDR_LOOPBACK) } };
	struct sockaddr_in6 to6 = { .sin6_family = AF_INET6,
				    .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	int s[48], s6[48], p, n = 0;

	for (p = 0; p < 48; p++) {	/* 150..197: numbers no stack claims */
		s[p] = socket(AF_INET, SOCK_RAW, 150 + p);
		s6[p] = socket(AF_INET6, SOCK_RAW, 150 + p);
		n += s[p] >= 0;
	}
	for (p = 0; p < 48 * 4; p++) {
		if (s[p % 48] >= 0)
			sendto(s[p % 48], "raw", 3, MSG_DONTWAIT, (struct sockaddr *)&to, sizeof(to));
		if (s6[p % 48] >= 0)
			sendto(s6[p % 48], "raw", 3, MSG_DONTWAIT, (struct sockaddr *)&to6, sizeof(to6));
	}
	for (p = 0; p < 48; p++) {
		if (s[p] >= 0)
			close(s[p]);
		if (s6[p] >= 0)
			close(s6[p]);
	}
	report("raw", n > 0, strerror(errno));
}

/* --- UDP: 32 sockets with small receive buffers filled past half ------ */
static void do_udp_pressure(void)
{
	int r[32], s = socket(AF_INET, SOCK_DGRAM, 0), i, j, small = 1024, n = 0;
	char msg[512];

	memset(msg, 'd', sizeof(msg));
	for (i = 0; i < 32; i++) {
		struct sockaddr_in a = { .sin_family = AF_INET,
					 .sin_port = htons((uint16_t)(5700 + i)),
					 .sin_addr = { htonl(INADDR_LOOPBACK) } };

		r[i] = socket(AF_INET, SOCK_DGRAM, 0);
		setsockopt(r[i], SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
		n += bind(r[i], (struct sockaddr *)&a, sizeof(a)) == 0;
	}
	for (j = 0; j < 12; j++)
		for (i = 0; i < 32; i++) {
			struct sockaddr_in a = { .sin_family = AF_INET,
						 .sin_port = htons((uint16_t)(5700 + i)),
						 .sin_addr = { htonl(INADDR_LOOPBACK) } };

			sendto(s, msg, sizeof(msg), MSG_DONTWAIT, (struct sockaddr *)&a, sizeof(a));
		}
	for (i = 0; i < 32; i++)
		close(r[i]);
	close(s);
	report("udp-pressure", n == 32, "bind");
}

/* --- vhost-vsock: 32 devices, each given a guest id (the cid hash) ---- */
static void do_vhost_vsock(void)
{
	int fd[32], i, n = 0;

	for (i = 0; i < 32; i++) {
		uint64_t cid = 3 + (uint64_t)i * 1009;

		fd[i] = open("/dev/vhost-vsock", O_RDWR);
		if (fd[i] < 0)
			continue;
		if (ioctl(fd[i], VHOST_SET_OWNER, NULL) == 0 &&
		    ioctl(fd[i], VHOST_VSOCK_SET_GUEST_CID, &cid) == 0)
			n++;
	}
	for (i = 0; i < 32; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	report("vhost-vsock", n > 0, strerror(errno));
}

/* --- route exceptions and SYNs: packets a peer would send, written here --- */
static uint16_t csum16(const void *data, size_t n, uint32_t sum)
{
	const uint8_t *p = data;

	for (; n > 1; n -= 2, p += 2)
		sum += (uint32_t)p[0] << 8 | p[1];
	if (n)
		sum += (uint32_t)p[0] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons((uint16_t)~sum);
}

/*
 * PMTU discovery: a connected UDP socket to each of 24 destinations behind
 * census-d0 (init.sh routes 10.95.N.0/24 and fd00:95:N::/64 there), then
 * the ICMP "fragmentation needed" / ICMPv6 "packet too big" quoting its
 * datagram, as a router on the way would send it: each makes a route
 * exception keyed by the destination (fnhe_hashfun, rt6_exception_hash).
 */
static int udp_probe(const void *to, socklen_t tolen, void *me, socklen_t melen)
{
	int u = socket(((const struct sockaddr *)to)->sa_family, SOCK_DGRAM, 0);

	if (u >= 0 && (connect(u, to, tolen) < 0 || send(u, "p", 1, 0) < 0 ||
		       getsockname(u, me, &melen) < 0)) {
		close(u);
		u = -1;
	}
	return u;
}

static void do_pmtu(void)
{
	int raw = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	int raw6 = socket(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6), i, n = 0, us[48];

	for (i = 0; i < 48; i++)
		us[i] = -1;
	for (i = 0; raw >= 0 && i < 24; i++) {
		struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(9) }, me;
		struct {
			struct icmphdr icmp;
			struct iphdr ip;
			struct udphdr udp;
		} pkt;

		to.sin_addr.s_addr = htonl(0x0a5f0002u | (uint32_t)i << 8);	/* 10.95.i.2 */
		us[i] = udp_probe(&to, sizeof(to), &me, sizeof(me));
		if (us[i] < 0)
			continue;
		memset(&pkt, 0, sizeof(pkt));
		pkt.icmp.type = ICMP_DEST_UNREACH;
		pkt.icmp.code = ICMP_FRAG_NEEDED;
		pkt.icmp.un.frag.mtu = htons(1280);
		pkt.ip.version = 4;
		pkt.ip.ihl = 5;
		pkt.ip.tot_len = htons(sizeof(pkt.ip) + sizeof(pkt.udp) + 1);
		pkt.ip.ttl = 64;
		pkt.ip.protocol = IPPROTO_UDP;
		pkt.ip.saddr = me.sin_addr.s_addr;
		pkt.ip.daddr = to.sin_addr.s_addr;
		pkt.ip.check = csum16(&pkt.ip, sizeof(pkt.ip), 0);
		pkt.udp.source = me.sin_port;
		pkt.udp.dest = to.sin_port;
		pkt.udp.len = htons(sizeof(pkt.udp) + 1);
		pkt.icmp.checksum = csum16(&pkt, sizeof(pkt), 0);
		n += sendto(raw, &pkt, sizeof(pkt), 0, (struct sockaddr *)&me, sizeof(me)) > 0;
	}
	for (i = 0; raw6 >= 0 && i < 24; i++) {
		struct sockaddr_in6 to = { .sin6_family = AF_INET6, .sin6_port = htons(9) }, me;
		struct {
			struct icmp6_hdr icmp;
			struct ip6_hdr ip;
			struct udphdr udp;
		} pkt;
		char a[32];

		/* as init.sh writes it: the decimal i read as a hex group */
		snprintf(a, sizeof(a), "fd00:95:%d::2", i);
		inet_pton(AF_INET6, a, &to.sin6_addr);
		us[24 + i] = udp_probe(&to, sizeof(to), &me, sizeof(me));
		if (us[24 + i] < 0)
			continue;
		memset(&pkt, 0, sizeof(pkt));
		pkt.icmp.icmp6_type = ICMP6_PACKET_TOO_BIG;
		pkt.icmp.icmp6_mtu = htonl(1280);
		pkt.ip.ip6_flow = htonl(6u << 28);
		pkt.ip.ip6_plen = htons(sizeof(pkt.udp) + 1);
		pkt.ip.ip6_nxt = IPPROTO_UDP;
		pkt.ip.ip6_hlim = 64;
		pkt.ip.ip6_src = me.sin6_addr;
		pkt.ip.ip6_dst = to.sin6_addr;
		pkt.udp.source = me.sin6_port;
		pkt.udp.dest = to.sin6_port;
		pkt.udp.len = htons(sizeof(pkt.udp) + 1);
		/* the kernel fills the ICMPv6 checksum of a raw ICMPv6 socket */
		me.sin6_port = 0;
		n += sendto(raw6, &pkt, sizeof(pkt), 0, (struct sockaddr *)&me, sizeof(me)) > 0;
	}
	usleep(300000);	/* the errors find their sockets still open */
	for (i = 0; i < 48; i++)
		if (us[i] >= 0)
			close(us[i]);
	if (raw >= 0)
		close(raw);
	if (raw6 >= 0)
		close(raw6);
	report("pmtu", n > 0, "no ICMP sent");
}

/*
 * A listener whose SYN queue is nearly full, with syncookies off: TCP asks
 * its metrics whether each new peer is proven (tcp_peer_is_proven, keyed
 * by the peer's address). 40 SYNs from 40 addresses behind census-d0,
 * whose SYN-ACKs go to the dummy device and are lost, keep the requests
 * queued.
 */
static void do_syn_queue(void)
{
	struct sockaddr_in l = { .sin_family = AF_INET, .sin_port = htons(7000),
				 .sin_addr = { htonl(0x0a600001u) } };	/* 10.96.0.1 */
	int ls = socket(AF_INET, SOCK_STREAM, 0), raw = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	int one = 1, i, n = 0;

	put("/proc/sys/net/ipv4/tcp_syncookies", "0");
	put("/proc/sys/net/ipv4/tcp_max_syn_backlog", "16");
	if (ls < 0 || raw < 0 || setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(ls, (struct sockaddr *)&l, sizeof(l)) < 0 || listen(ls, 128) < 0) {
		report("syn-queue", 0, strerror(errno));
		goto out;
	}
	for (i = 0; i < 40; i++) {
		struct {
			struct iphdr ip;
			struct tcphdr tcp;
		} pkt;
		struct {
			uint32_t saddr, daddr;
			uint8_t zero, proto;
			uint16_t len;
			struct tcphdr tcp;
		} pseudo;

		memset(&pkt, 0, sizeof(pkt));
		pkt.ip.version = 4;
		pkt.ip.ihl = 5;
		pkt.ip.tot_len = htons(sizeof(pkt));
		pkt.ip.ttl = 64;
		pkt.ip.protocol = IPPROTO_TCP;
		/* 10.95.(i % 24).(10 + i) */
		pkt.ip.saddr = htonl(0x0a5f0000u | (uint32_t)(i % 24) << 8 | (uint32_t)(10 + i));
		pkt.ip.daddr = l.sin_addr.s_addr;
		pkt.tcp.source = htons((uint16_t)(20000 + i));
		pkt.tcp.dest = l.sin_port;
		pkt.tcp.seq = htonl(0x1000u * (uint32_t)(i + 1));
		pkt.tcp.doff = 5;
		pkt.tcp.syn = 1;
		pkt.tcp.window = htons(65535);
		pseudo.saddr = pkt.ip.saddr;
		pseudo.daddr = pkt.ip.daddr;
		pseudo.zero = 0;
		pseudo.proto = IPPROTO_TCP;
		pseudo.len = htons(sizeof(pkt.tcp));
		pseudo.tcp = pkt.tcp;
		pkt.tcp.check = csum16(&pseudo, sizeof(pseudo), 0);
		n += sendto(raw, &pkt, sizeof(pkt), 0, (struct sockaddr *)&l, sizeof(l)) > 0;
	}
	usleep(500000);
	report("syn-queue", n > 0, "no SYN sent");
out:
	if (ls >= 0)
		close(ls);
	if (raw >= 0)
		close(raw);
	put("/proc/sys/net/ipv4/tcp_syncookies", "1");
	put("/proc/sys/net/ipv4/tcp_max_syn_backlog", "128");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: census-load DIR\n");
		return 2;
	}
	dir = argv[1];
	do_io_uring();
	do_fanotify();
	do_locks();
	do_multicast();
	do_perf();
	do_timers();
	do_bpf();
	do_ksm_thp();
	do_raw();
	do_udp_pressure();
	do_vhost_vsock();
	do_pmtu();
	do_syn_queue();
	return 0;
}
