// SPDX-License-Identifier: GPL-2.0-only
/*
 * utrusage: the CPU time a command used over its whole life, its reaped
 * children's included, in microseconds; for bench/io-cost, where a
 * collector's work after it is stopped (trace-cmd writing its output
 * file, usbtrail record flushing its capture) must count too and busybox
 * `time` prints hundredths of a second.  Runs COMMAND, passes SIGINT and
 * SIGTERM on to it, and when it has ended writes one line to OUTFILE:
 *
 *   USER_US SYS_US
 *
 * from wait4()'s rusage (the kernel sums sum_exec_runtime, exact; only
 * the split between user and system is sampled at ticks).  Exits with
 * the command's status (128 + N when killed by signal N).
 *
 *   utrusage OUTFILE COMMAND [ARG...]
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* set before the handlers are installed, read-only after */
static pid_t utrusage_child;

static void utrusage_forward(int sig)
{
	if (utrusage_child > 0)
		kill(utrusage_child, sig);
}

static long long utrusage_us(const struct timeval *tv)
{
	return (long long)tv->tv_sec * 1000000 + tv->tv_usec;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	struct rusage ru;
	int status;
	pid_t pid;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: utrusage OUTFILE COMMAND [ARG...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("utrusage: fork");
		return 1;
	}
	if (!pid) {
		/* a shell's background job has them ignored: not the command */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(argv[2], argv + 2);
		fprintf(stderr, "utrusage: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	utrusage_child = pid;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = utrusage_forward;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("utrusage: wait4");
			return 1;
		}
	}
	f = fopen(argv[1], "w");
	if (!f || fprintf(f, "%lld %lld\n", utrusage_us(&ru.ru_utime),
			  utrusage_us(&ru.ru_stime)) < 0 || fclose(f)) {
		fprintf(stderr, "utrusage: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
