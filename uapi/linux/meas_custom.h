/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * meas: user-defined classes and UPDATESTATISTICS (included by
 * <linux/meas.h>).  Documentation/custom.rst.
 */
#ifndef _UAPI_LINUX_MEAS_CUSTOM_H
#define _UAPI_LINUX_MEAS_CUSTOM_H

#include <linux/types.h>
#include <linux/meas_core.h>

/*
 * Classes 1..13 may be defined at run time, by a privileged tool
 * (MEAS_IOC_DEFINE) or a kernel module (module/meas_api.h).  Classes 0,
 * 14 and 15 belong to the module.  A user-defined class has 1..16
 * subclasses; subclass s has entries 1..sub[s].entries, each of
 * sub[s].items items (entry 0 is the subclass header), so GETSTATISTICS
 * item n of subclass s is entry n / items + 1, item n % items.
 */
#define MEAS_CLASSMASK_RESERVED	0xc001U	/* 0, 14, 15: the module's own */
#define MEAS_CLASSMASK_CUSTOM	0x3ffeU	/* 1..13: may be user-defined */
#define MEAS_NAME_MAX		32	/* bytes of a name, the NUL included */
#define MEAS_CUSTOM_MAX_SUBCLASSES	16
#define MEAS_CUSTOM_MAX_ITEMS	256	/* items per entry */
#define MEAS_CUSTOM_MAX_CLASS_ITEMS	65536	/* items of all entries */

/* Kinds of item: how the kernel keeps it (Documentation/custom.rst). */
#define MEAS_ITEM_COUNTER	0	/* per-CPU: adds scale, replace is slow */
#define MEAS_ITEM_GAUGE		1	/* one atomic word: replace is cheap */

/**
 * struct meas_item_def - one item of an entry
 * @name: "" or a name of 1..31 printable ASCII characters other than
 *	space, NUL-terminated (what follows the NUL is ignored)
 * @kind: MEAS_ITEM_COUNTER or MEAS_ITEM_GAUGE
 * @reserved: must be 0
 */
struct meas_item_def {
	char name[MEAS_NAME_MAX];
	__u32 kind;
	__u32 reserved;
};

/**
 * struct meas_subclass_def - shape of one subclass
 * @name: "" or a name, as for items
 * @entries: number of entries after the header, at least 1
 * @items: items per entry, 1..MEAS_CUSTOM_MAX_ITEMS
 */
struct meas_subclass_def {
	char name[MEAS_NAME_MAX];
	__u32 entries;
	__u32 items;
};

/* flags of struct meas_define */
#define MEAS_DEFINE_REPLACE	0x1	/* MEAS_IOC_DEFINE: may redefine */

/**
 * struct meas_define - argument of MEAS_IOC_DEFINE, MEAS_IOC_UNDEFINE and
 * MEAS_IOC_DESCRIBE
 * @size: sizeof(struct meas_define), at least MEAS_DEFINE_SIZE_VER0
 * @flags: DEFINE: 0 or MEAS_DEFINE_REPLACE; UNDEFINE, DESCRIBE: 0
 * @class: class number
 * @result: out: MEAS_DEFINE_* code
 * @nsub: number of subclasses, 1..MEAS_CUSTOM_MAX_SUBCLASSES
 * @pad: must be 0
 * @name: "" or the class name, as for items
 * @sub: the subclasses; sub[nsub..] must be zero
 * @items: user address of the item definitions (struct meas_item_def),
 *	for each subclass in turn its sub[s].items items, or 0: every item
 *	an unnamed counter.  DESCRIBE: where to store them, or 0
 * @nitems: number of elements at @items: the sum of sub[s].items, or 0
 *	with @items 0.  DESCRIBE: in: room at @items; out: the sum
 * @reserved: must be 0
 *
 * UNDEFINE reads only @size, @flags and @class; the other inputs must be
 * 0.  DESCRIBE reads @size, @flags, @class, @items and @nitems and
 * overwrites every other field.
 */
struct meas_define {
	__u32 size;
	__u32 flags;
	__s32 class;
	__s32 result;
	__u32 nsub;
	__u32 pad;
	char name[MEAS_NAME_MAX];
	struct meas_subclass_def sub[MEAS_CUSTOM_MAX_SUBCLASSES];
	__aligned_u64 items;
	__aligned_u64 nitems;
	__aligned_u64 reserved[2];
};

#define MEAS_DEFINE_SIZE_VER0	728

/*
 * DEFINE, UNDEFINE and DESCRIBE result codes (a meas extension: MPE IV
 * defined its classes at system generation).
 */
#define MEAS_DEFINE_OK		0	/* 0 */
#define MEAS_DEFINE_BADCLASS	1	/* EINVAL: class outside 0..15 */
#define MEAS_DEFINE_RESERVED	2	/* EINVAL: a class the module owns */
#define MEAS_DEFINE_EXISTS	3	/* EEXIST: defined, no REPLACE flag */
#define MEAS_DEFINE_BUSY	4	/* EBUSY: enabled: cannot be redefined
					 * or removed
					 */
#define MEAS_DEFINE_NOCLASS	5	/* ENOENT: not a user-defined class */
#define MEAS_DEFINE_BADSHAPE	6	/* EINVAL: nsub, entries, items, kind,
					 * nitems, or a reserved word of an
					 * item definition
					 */
#define MEAS_DEFINE_BADNAME	7	/* EINVAL: a name not NUL-terminated
					 * or not printable
					 */
#define MEAS_DEFINE_TOOBIG	8	/* E2BIG: above MEAS_CUSTOM_MAX_CLASS_ITEMS */
#define MEAS_DEFINE_NOMEM	9	/* ENOMEM: no memory for the definition */

/* flags of struct meas_update */
#define MEAS_UPDATE_FAST	0x1	/* FUPDATESTATISTICS */
#define MEAS_UPDATE_NEWVALUE	0x2	/* newvalueflag: replace, not add */
#define MEAS_UPDATE_DOUBLE	0x4	/* doubleitemflag: a double item */

/**
 * struct meas_update - argument of MEAS_IOC_UPDATE (UPDATESTATISTICS)
 * @size: sizeof(struct meas_update), at least MEAS_UPDATE_SIZE_VER0
 * @flags: MEAS_UPDATE_* bits
 * @class: class number (a user-defined class)
 * @subclass: subclass number
 * @entry: entry number, 1..entries (MPE IV's subclassentry)
 * @startingitem: item within the entry, 0..items-1
 * @valuechange: added to the item, or with MEAS_UPDATE_NEWVALUE its new
 *	value (two's complement: a negative value subtracts)
 * @result: out: MEAS_UPDATE_* code
 * @pad: must be 0
 * @reserved: must be 0
 */
struct meas_update {
	__u32 size;
	__u32 flags;
	__s32 class;
	__s32 subclass;
	__s64 entry;
	__s64 startingitem;
	__s64 valuechange;
	__s32 result;
	__u32 pad;
	__aligned_u64 reserved[2];
};

#define MEAS_UPDATE_SIZE_VER0	64

/*
 * UPDATESTATISTICS result codes, in the order they are checked.  The
 * fast entry point (MEAS_UPDATE_FAST, FUPDATESTATISTICS) always returns
 * 0 and writes nothing outside the subclass.
 */
#define MEAS_UPDATE_OK		0	/* 0 */
#define MEAS_UPDATE_NOTENABLED	1	/* ENODATA: class defined, not enabled */
#define MEAS_UPDATE_BADITEM	2	/* ERANGE: startingitem (or, double,
					 * startingitem + 1) not in the entry
					 */
#define MEAS_UPDATE_BADENTRY	3	/* ERANGE: entry outside 1..entries */
#define MEAS_UPDATE_BADSUBCLASS	4	/* EINVAL: no such subclass */
#define MEAS_UPDATE_BADCLASS	5	/* EINVAL: not a user-defined class */

#endif /* _UAPI_LINUX_MEAS_CUSTOM_H */
