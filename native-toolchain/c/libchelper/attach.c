/*
 * attach.c - Apache-2.0, part of this project's native-image toolchain.
 *
 * Replaces the svm_attach_* helpers of SubstrateVM's liblibchelper.a (the
 * jcmd / Attach API listener). Written from com.oracle.svm.core.posix.attach.
 * AttachHelper and its callers PosixAttachApiSupport/PosixAttachListenerThread,
 * following the POSIX attach protocol of the JDK: a UNIX socket
 * <tmpdir>/.java_pid<pid>, created under a temporary name and renamed into
 * place, accessible to the owner only; a client triggers it by creating
 * .attach_pid<pid> and sending SIGQUIT; only peers with our effective uid/gid
 * (or root) are served.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* At startup: remove a stale socket file left behind by a process with our pid. */
void svm_attach_startup(const char *path) {
    struct stat st;
    if (stat(path, &st) == 0) {
        unlink(path);
    }
}

void svm_attach_listener_cleanup(int listener, const char *path) {
    if (listener != -1) {
        shutdown(listener, SHUT_RDWR);
        close(listener);
    }
    if (path != NULL) {
        unlink(path);
    }
}

bool svm_attach_check_socket_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

/* True if the trigger file exists and belongs to us (or to root). */
bool svm_attach_is_init_trigger(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) {
        return false;
    }
    return st.st_uid == geteuid() || st.st_uid == 0;
}

int svm_attach_create_listener(const char *path) {
    struct sockaddr_un addr;
    char tmp[sizeof(addr.sun_path)];
    if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int) sizeof(tmp)) {
        return -1; /* path too long for a UNIX socket */
    }
    int fd = socket(PF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd == -1) {
        return -1;
    }
    memset(&addr, 0, sizeof(addr));
    addr.sun_family = AF_UNIX;
    strcpy(addr.sun_path, tmp);
    unlink(tmp);
    if (bind(fd, (struct sockaddr *) &addr, sizeof(addr)) == -1 || listen(fd, 5) == -1 ||
        chmod(tmp, S_IRUSR | S_IWUSR) == -1 || chown(tmp, geteuid(), getegid()) == -1 ||
        rename(tmp, path) == -1) {
        close(fd);
        unlink(tmp);
        return -1;
    }
    return fd;
}

/* Blocks until an authorised client connects; -1 when the listener is shut down. */
int svm_attach_wait_for_request(int listener) {
    for (;;) {
        int s = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
        if (s == -1) {
            if (errno == EINTR) {
                continue;
            }
            return -1;
        }
        struct ucred cred;
        socklen_t len = sizeof(cred);
        if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 &&
            (cred.uid == 0 || (cred.uid == geteuid() && cred.gid == getegid()))) {
            return s;
        }
        close(s);
    }
}

void svm_attach_shutdown_socket(int socket) {
    shutdown(socket, SHUT_RDWR);
}
