/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The first bytes of sqwave's own files, known low in the tree so that
 * outfile can refuse to write over a log without knowing the log format. */
#ifndef SQW_MAGIC_H
#define SQW_MAGIC_H

/* The edge log (docs/log-format.md), EDGELOG_MAGIC: 8 bytes, no NUL. */
#define MAGIC_EDGELOG "SQWAVLOG"

#endif
