/* SPDX-License-Identifier: GPL-2.0 */
/* collectors.c: the collectors of the shared clock, for main.c */
#ifndef _MEAS_COLLECTORS_H
#define _MEAS_COLLECTORS_H

#include "clock/clock.h"

extern const struct meas_collector *const meas_collectors[MEAS_CLOCK_COLLECTORS];

#endif /* _MEAS_COLLECTORS_H */
