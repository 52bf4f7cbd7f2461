/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CRC-32 as IEEE 802.3, gzip and zlib's crc32() compute it: the checksum of
 * the edge log's format-3 blocks (docs/log-format.md), without zlib. */
#ifndef SQW_CRC32_H
#define SQW_CRC32_H

#include <stddef.h>
#include <stdint.h>

/*
 * The CRC of the @len bytes at @buf, continued from @crc: 0 to start, a
 * previous result to go on (crc32_update(crc32_update(0, a, n), b, m) is
 * the CRC of a followed by b), the value zlib's crc32(crc, buf, len) gives.
 * Reflected, polynomial 0x04C11DB7 (0xEDB88320 reversed), initial value and
 * final XOR 0xFFFFFFFF. Allocates nothing; safe from any thread.
 */
uint32_t crc32_update(uint32_t crc, const void *buf, size_t len);

#endif
