// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the PCP names of the metric table
 * (tools/lib/metrics/pcpname.c), and of what measctl's replay relies on:
 * every class 0 item that watch shows, and every disk item that iostat
 * reads, is one series of the table (or one less another), so that an
 * archive of pmdameas holds it; the names are valid PMNS names and do
 * not collide; the process groups' are too.
 */
#include <ctype.h>
#include <string.h>

#include "kselftest_harness.h"
#include "metrics.h"

static int pmns_valid(const char *n)
{
	const char *p;

	for (p = n; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.')
			return 0;
	return n[0] && isalpha((unsigned char)n[0]);
}

/* The series of @src that holds @item, plain (no @minus) if @plain. */
static int covered(enum mx_src src, int item, int plain)
{
	const struct mx_series *se;
	size_t i;
	int n = 0;

	for (i = 0; i < mx_nfamilies; i++) {
		if (mx_families[i].src != src)
			continue;
		for (se = mx_families[i].series; se->item != MX_NONE; se++)
			if (se->item == item && (!plain || se->minus == MX_NONE))
				n++;
	}
	return n;
}

TEST(every_watch_item_is_in_one_series)
{
	unsigned int i;
	size_t f;

	for (i = 0; i < MEAS_C0_FIXED_ITEMS; i++)
		if (meas_c0_item_name(i))
			EXPECT_EQ(1, covered(MX_SRC_FIXED, (int)i, 0)) {
				TH_LOG("class 0 item %u (%s)", i,
				       meas_c0_item_name(i));
			}
	/* an item less another: the other is itself a plain series */
	for (f = 0; f < mx_nfamilies; f++) {
		const struct mx_series *se = mx_families[f].series;

		for (; se->item != MX_NONE; se++)
			if (mx_families[f].src == MX_SRC_FIXED &&
			    se->minus != MX_NONE)
				EXPECT_EQ(1, covered(MX_SRC_FIXED, se->minus, 1));
	}
}

TEST(every_iostat_item_is_a_plain_series)
{
	static const int xfer[] = {
		MEAS_C0_XFER_READS, MEAS_C0_XFER_WRITES,
		MEAS_C0_XFER_READ_BYTES, MEAS_C0_XFER_WRITE_BYTES,
		MEAS_C0_XFER_READ_NS, MEAS_C0_XFER_WRITE_NS,
		MEAS_C0_XFER_READS_TIMED, MEAS_C0_XFER_WRITES_TIMED,
		MEAS_C0_XFER_QUEUE_NS, MEAS_C0_XFER_INFLIGHT,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(xfer); i++)
		EXPECT_EQ(1, covered(MX_SRC_XFER, xfer[i], 1));
	EXPECT_EQ(1, covered(MX_SRC_DISC, MEAS_C0_DISC_CONTROL, 1));
	EXPECT_EQ(1, covered(MX_SRC_DISC, MEAS_C0_DISC_BUSY, 1));
	EXPECT_EQ(1, covered(MX_SRC_QLEN, MEAS_C0_DISC_QLEN0, 1));
}

TEST(names_are_pmns_names_and_distinct)
{
	const struct mx_series *se;
	char a[128], b[128];
	size_t i, j;

	for (i = 0; i < mx_nfamilies; i++) {
		const struct mx_family *f = &mx_families[i];

		for (se = f->series; se->item != MX_NONE; se++) {
			if (mx_pcp_series_name(a, sizeof(a), f, se))
				continue;
			EXPECT_TRUE(pmns_valid(a)) TH_LOG("%s", a);
			EXPECT_EQ(0, strncmp(a, "meas.", 5));
			for (j = 0; j < i; j++) {
				const struct mx_family *g = &mx_families[j];

				if (mx_pcp_series_name(b, sizeof(b), g, g->series))
					continue;
				EXPECT_STRNE(a, b);
			}
		}
	}
}

TEST(series_names)
{
	char n[128];
	size_t i;
	int disk = 0;

	for (i = 0; i < mx_nfamilies; i++) {
		const struct mx_family *f = &mx_families[i];

		if (!strcmp(f->name, "meas_cpu_seconds")) {
			ASSERT_EQ(0, mx_pcp_series_name(n, sizeof(n), f, f->series));
			EXPECT_STREQ("meas.sched.cpu", n);
		}
		if (f->src == MX_SRC_DISC && f->series[0].lv && !disk) {
			disk = 1;
			ASSERT_EQ(0, mx_pcp_series_name(n, sizeof(n), f, f->series));
			EXPECT_EQ(0, strncmp(n, "meas.disk.dev.", 14)) TH_LOG("%s", n);
			EXPECT_STREQ(f->series[0].lv, strrchr(n, '.') + 1);
		}
		if (f->src == MX_SRC_BUILD)
			EXPECT_EQ(-1, mx_pcp_series_name(n, sizeof(n), f, f->series));
	}
	EXPECT_EQ(1, disk);
}

TEST(proc_names)
{
	char n[128];
	unsigned int i;
	int named = 0;

	ASSERT_EQ(0, mx_pcp_proc_name(n, sizeof(n), MEAS_P_CPU_TIME));
	EXPECT_STREQ("meas.proc.cpu", n);
	ASSERT_EQ(0, mx_pcp_proc_name(n, sizeof(n), MEAS_P_STOP_JOBCTL));
	EXPECT_STREQ("meas.proc.stops_job_control", n);
	ASSERT_EQ(0, mx_pcp_proc_name(n, sizeof(n), MEAS_P_DISC_READ_BYTES));
	EXPECT_STREQ("meas.proc.disc_read_bytes", n);
	EXPECT_EQ(-1, mx_pcp_proc_name(n, sizeof(n), MEAS_PROC_ITEMS));
	for (i = 0; i < MEAS_PROC_ITEMS; i++) {
		if (mx_pcp_proc_name(n, sizeof(n), i))
			continue;
		named++;
		EXPECT_TRUE(pmns_valid(n)) TH_LOG("%s", n);
	}
	EXPECT_EQ(41, named);
	for (i = 0; i < mx_pcp_np0; i++)
		EXPECT_TRUE(pmns_valid(mx_pcp_p0[i].name));
}

TEST(group_names)
{
	char n[128], o[128];
	unsigned int k, j;

	mx_pcp_group_name(n, sizeof(n), &mx_grp_families[MX_GF_CPU]);
	EXPECT_STREQ("meas.group.cpu", n);
	mx_pcp_group_name(n, sizeof(n), &mx_grp_families[MX_GF_CAPPED]);
	EXPECT_STREQ("meas.group.capped", n);
	mx_pcp_group_name(n, sizeof(n), &mx_grp_families[MX_GF_LOST]);
	EXPECT_STREQ("meas.group.exit_records_lost", n);
	for (k = 0; k < MX_GF_NR; k++) {
		mx_pcp_group_name(n, sizeof(n), &mx_grp_families[k]);
		EXPECT_TRUE(pmns_valid(n)) TH_LOG("%s", n);
		EXPECT_TRUE(mx_grp_families[k].help &&
			    mx_grp_families[k].help[0]) TH_LOG("%s", n);
		for (j = 0; j < k; j++) {
			mx_pcp_group_name(o, sizeof(o), &mx_grp_families[j]);
			EXPECT_STRNE(n, o);
		}
	}
}

/*
 * meas.cgroup.*: what pmdameas serves and what measctl cgroup --archive
 * reads back are one name per series, distinct, of a PMNS form.
 */
TEST(cgroup_names)
{
	char n[128], o[128];
	size_t k, j;

	mx_pcp_cgroup_name(n, sizeof(n), &mx_cg_series[0]);
	EXPECT_STREQ("meas.cgroup.cpu", n);
	for (k = 0; k < mx_cg_nseries; k++) {
		mx_pcp_cgroup_name(n, sizeof(n), &mx_cg_series[k]);
		EXPECT_TRUE(pmns_valid(n)) TH_LOG("%s", n);
		if (mx_cg_series[k].item == MX_CG_THREADS)
			EXPECT_STREQ("meas.cgroup.threads", n);
		if (mx_cg_series[k].item == MEAS_P_DISC_BYTES)
			EXPECT_STREQ("meas.cgroup.disk_bytes.write", n);
		for (j = 0; j < k; j++) {
			mx_pcp_cgroup_name(o, sizeof(o), &mx_cg_series[j]);
			EXPECT_STRNE(n, o);
		}
	}
}

TEST_HARNESS_MAIN
