// SPDX-License-Identifier: GPL-2.0
/*
 * The classes pmdameas holds for its whole life (class 0, and 14, 15 as
 * its options say), and /dev/meas opened again when meas was not loaded
 * at start: at most every HOLD_RETRY_S seconds, at a fetch.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "pmdameas.h"

struct mx_hold pm_hold = { .fd = -1 };
uint32_t pm_hold_mask = 1U << MEAS_CLASS_GLOBAL;
static time_t last_try;

/* Retry at most this often when meas cannot be opened (not loaded). */
#define HOLD_RETRY_S	10

/**
 * pm_hold_ensure() - hold the classes served, opening /dev/meas if needed
 *
 * Return: 0, or a negative errno until meas can be opened and started.
 */
int pm_hold_ensure(void)
{
	time_t now = time(NULL);
	int err;

	if (pm_hold.fd >= 0)
		return 0;
	if (last_try && now - last_try < HOLD_RETRY_S)
		return -EAGAIN;
	last_try = now;
	memset(&pm_hold, 0, sizeof(pm_hold));
	err = mx_hold_start(&pm_hold, pm_hold_mask, 1);
	if (err) {
		pm_hold.fd = -1;
		return err;
	}
	pmNotifyErr(LOG_INFO, "holding classes 0x%x of /dev/meas", pm_hold.mask);
	return 0;
}
