/* SPDX-License-Identifier: MIT */
#ifndef THING_H
#define THING_H
static inline unsigned int thing_hash(const void *dev)
{
	return hash32_ptr(dev);
}
#endif
