/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sqwave's own children: their spawn attributes, their inherited
 * descriptors closed, and the guardian's start, both ends of it. */
#include "base/child.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/msgbuf.h"

extern char **environ;

void child_spawnattr_init(posix_spawnattr_t *attr)
{
	sigset_t none, all;

	posix_spawnattr_init(attr);
	sigemptyset(&none);
	sigfillset(&all);
	posix_spawnattr_setsigmask(attr, &none);
	posix_spawnattr_setsigdefault(attr, &all);
	posix_spawnattr_setpgroup(attr, 0);
	posix_spawnattr_setflags(attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
				       POSIX_SPAWN_SETPGROUP);
}

void child_close_from(int lowfd)
{
#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned)lowfd, ~0u, 0) == 0)
		return;
#endif
	{
		DIR *d = opendir("/proc/self/fd");
		struct dirent *de;

		if (!d) {
			int fd;

			for (fd = lowfd; fd < 4096; fd++)
				close(fd);
			return;
		}
		while ((de = readdir(d))) {
			int fd = atoi(de->d_name);

			if (fd >= lowfd && fd != dirfd(d))
				close(fd);
		}
		closedir(d);
	}
}

int child_guardian_spawn(char *const argv[], int timeout_ms, const char *what,
			 const char *unless, pid_t *pid, int *fd, char *err, size_t errlen)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	int p[2], ready[2], r;
	struct pollfd pfd;
	char word[8] = "";

	*pid = 0;
	*fd = -1;
	if (pipe2(p, O_CLOEXEC) < 0) {
		msgbuf_set(err, errlen, "cannot start %s: pipe: %s", what, strerror(errno));
		return -1;
	}
	if (pipe2(ready, O_CLOEXEC) < 0) {
		msgbuf_set(err, errlen, "cannot start %s: pipe: %s", what, strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[0], 0);
	posix_spawn_file_actions_adddup2(&fa, ready[1], 1);	/* says "ready" */
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	child_spawnattr_init(&attr);
	r = posix_spawn(pid, argv[0], &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	close(p[0]);
	close(ready[1]);
	if (r) {
		close(p[1]);
		close(ready[0]);
		*pid = 0;
		msgbuf_set(err, errlen, "cannot start %s (%s): %s", what, argv[0], strerror(r));
		return -1;
	}
	pfd.fd = ready[0];
	pfd.events = POLLIN;
	while ((r = poll(&pfd, 1, timeout_ms)) < 0 && errno == EINTR)
		;
	if (r <= 0 || read(ready[0], word, sizeof(word) - 1) < 5 || strncmp(word, "ready", 5)) {
		close(ready[0]);
		close(p[1]);
		kill(*pid, SIGKILL);
		waitpid(*pid, NULL, 0);
		*pid = 0;
		msgbuf_set(err, errlen, "%s (%s %s) did not start: %s", what, argv[0],
			   argv[1] ? argv[1] : "", unless);
		return -1;
	}
	close(ready[0]);
	*fd = p[1];
	return 0;
}

int child_guardian_ready(const char *comm)
{
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	prctl(PR_SET_NAME, comm);
	child_close_from(3);
	if (write(1, "ready\n", 6) != 6)
		return -1;
	close(1);
	return 0;
}
