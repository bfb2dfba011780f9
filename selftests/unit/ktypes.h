/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel type names for module/logic/layout.c built on the host. */
#ifndef MEAS_UNIT_KTYPES_H
#define MEAS_UNIT_KTYPES_H
#include <stdbool.h>
#include <stdint.h>
typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;
typedef int32_t s32;
#endif
