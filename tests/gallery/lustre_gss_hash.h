/* SPDX-License-Identifier: MIT */
/*
 * Lustre's gss_hash_64(), lustre/ptlrpc/gss/gss_svc_upcall.c as LU-17015
 * added it in 2023 (lustre-release, the change of that ticket), for
 * 64-bit builds: the pre-4.7 kernel's shift-and-add chain for the key
 * times 0x9e37fffffffc0001 = 2^63 + 2^61 - 2^57 + 2^54 - 2^51 - 2^18 + 1,
 * the top `bits` bits of that product as a u64.  Written here from the
 * multiplier's terms, not from the chain's text.
 */
#ifndef GALLERY_LUSTRE_GSS_HASH_H
#define GALLERY_LUSTRE_GSS_HASH_H

#include <stdint.h>

static inline uint64_t gss_hash_64(uint64_t val, unsigned int bits)
{
	uint64_t sum = val;

	sum -= val << 18;
	sum -= val << 51;
	sum += val << 54;
	sum -= val << 57;
	sum += val << 61;
	sum += val << 63;
	return sum >> (64 - bits);
}

#endif
