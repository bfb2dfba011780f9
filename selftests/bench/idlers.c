// SPDX-License-Identifier: GPL-2.0
/*
 * idlers: N live processes that do nothing, for the scaling rows of the
 * instruction-count benchmark (does a context switch or a block request
 * cost more when the machine has 10,000 processes?).
 *   idlers N
 * Forks N children that wait in pause(), prints "ready N" once all
 * exist, and waits; SIGTERM ends it and its children (they are in its
 * process group).  Nothing else: the children touch no memory, so that
 * 10,000 of them fit in the test VM.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void on_term(int sig)
{
	(void)sig;
	signal(SIGTERM, SIG_IGN);
	kill(0, SIGTERM);
	_exit(0);
}

int main(int argc, char **argv)
{
	long n, i;
	pid_t pid;

	n = argc == 2 ? strtol(argv[1], NULL, 10) : 0;
	if (n < 1) {
		fprintf(stderr, "usage: idlers N\n");
		return 2;
	}
	if (setpgid(0, 0)) {
		perror("idlers: setpgid");
		return 1;
	}
	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0) {
			perror("idlers: fork");
			kill(0, SIGTERM);
			return 1;
		}
		if (!pid) {
			signal(SIGTERM, SIG_DFL);
			for (;;)
				pause();
		}
	}
	signal(SIGTERM, on_term);
	printf("ready %ld\n", n);
	fflush(stdout);
	for (;;)
		pause();
}
