/* SPDX-License-Identifier: GPL-2.0 */
/* classes.c: the classes composed of more than one area, for main.c */
#ifndef _MEAS_CLASSES_H
#define _MEAS_CLASSES_H

#include "core/class.h"

extern const struct meas_class_ops meas_class0_ops;
extern const struct meas_class_ops meas_class15_ops;

#endif /* _MEAS_CLASSES_H */
