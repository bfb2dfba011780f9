#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What tools/system/60-meas.rules has udev do, for the test VM, which
# runs no udev: /dev/meas, which the module makes 0600 root:root, goes to
# the group standing for "meas" there (MEAS_VM_GID, 4040) with mode 0660.
# The tests' unprivileged users are members of that group.
#   insmod module/meas.ko && selftests/meas-udev.sh
gid=${MEAS_VM_GID:-4040}
i=0
while [ ! -c /dev/meas ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
chgrp "$gid" /dev/meas && chmod 0660 /dev/meas
