/*
 * svm_container.c - Apache-2.0, part of this project's native-image toolchain.
 *
 * Replaces SubstrateVM's libsvm_container.a (no Maven artifact ships it):
 * container (cgroup) resource limits for native images, so that an image in a
 * Kubernetes pod sizes its heap and thread pools from the pod's limits.
 * Written from com.oracle.svm.core.container.ContainerLibrary / Container, with
 * the semantics of HotSpot's Linux container support:
 *
 *  - cgroup v1, v2 and hybrid hosts: each controller (memory, cpu, cpuset) is
 *    located via /proc/self/cgroup and /proc/self/mountinfo, on its v1
 *    hierarchy if it has one, else on the unified (v2) hierarchy;
 *  - limits are looked up from the process's cgroup up to the mount point and
 *    the tightest one wins (limits set on a parent cgroup apply too);
 *  - memory values: bytes; -1 = unlimited (also for a limit >= host memory),
 *    -2 = not available (HotSpot's OSCONTAINER_ERROR);
 *  - processors: min(CPU affinity, cpuset, ceil(quota / period)), at least 1;
 *    cpu shares / weight are not used (as in HotSpot since JDK 19);
 *  - "containerized": controllers mounted read-only (the usual container
 *    setup), or a memory or CPU quota limit is in force.
 *
 * Build with -DSVM_CONTAINER_TESTING to read all files below the directory
 * named by $SVM_CONTAINER_FAKE_ROOT (for tests with fake /proc and /sys trees)
 * and to get svm_container_test_dump().
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#define SVM_CONTAINER_VERSION 240100
#define SUCCESS_IS_NOT_CONTAINERIZED 0
#define SUCCESS_IS_CONTAINERIZED 1
#define ERROR_LIBCONTAINER_TOO_OLD 2
#define ERROR_LIBCONTAINER_TOO_NEW 3

#define UNLIMITED (-1)
#define NOT_AVAILABLE (-2)

enum { MEMORY, CPU, CPUSET, NCTRL };
static const char *const ctrl_names[NCTRL] = {"memory", "cpu", "cpuset"};

typedef struct {
    int version;              /* 0 = not found, 1 = cgroup v1, 2 = cgroup v2 */
    int read_only;            /* mounted read-only */
    char mount[PATH_MAX];     /* mount point: top of the walk up */
    char path[PATH_MAX];      /* this process's cgroup directory */
} controller;

static controller ctrl[NCTRL];
static volatile int init_state; /* 0 = not yet, 1 = running, 2 = done */
static int containerized;

/* ------------------------------------------------------------------ files */

#ifdef SVM_CONTAINER_TESTING
static const char *root_prefix(void) {
    const char *r = getenv("SVM_CONTAINER_FAKE_ROOT");
    return r != NULL ? r : "";
}
#else
static const char *root_prefix(void) {
    return "";
}
#endif

static FILE *open_file(const char *dir, const char *name) {
    char p[PATH_MAX * 2 + 64];
    snprintf(p, sizeof(p), "%s%s%s%s", root_prefix(), dir, name != NULL ? "/" : "", name != NULL ? name : "");
    return fopen(p, "re");
}

static int dir_exists(const char *dir) {
    char p[PATH_MAX + 64];
    snprintf(p, sizeof(p), "%s%s", root_prefix(), dir);
    return access(p, F_OK) == 0;
}

/* First line of dir/name without the newline; 0 on success. */
static int read_line(const char *dir, const char *name, char *buf, size_t size) {
    FILE *f = open_file(dir, name);
    if (f == NULL) {
        return -1;
    }
    char *ok = fgets(buf, (int) size, f);
    fclose(f);
    if (ok == NULL) {
        return -1;
    }
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

/* Parses a number or "max" (-> UNLIMITED). */
static int parse_value(const char *s, long long *out) {
    while (isspace((unsigned char) *s)) {
        s++;
    }
    if (strncmp(s, "max", 3) == 0) {
        *out = UNLIMITED;
        return 0;
    }
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || errno != 0) {
        return -1;
    }
    *out = v;
    return 0;
}

static int read_value(const char *dir, const char *name, long long *out) {
    char buf[256];
    return read_line(dir, name, buf, sizeof(buf)) == 0 ? parse_value(buf, out) : -1;
}

/* Value of "key <number>" in a flat-keyed file such as memory.stat. */
static int read_keyed(const char *dir, const char *name, const char *key, long long *out) {
    FILE *f = open_file(dir, name);
    if (f == NULL) {
        return -1;
    }
    char line[512];
    size_t klen = strlen(key);
    int rc = -1;
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, key, klen) == 0 && line[klen] == ' ') {
            rc = parse_value(line + klen + 1, out);
            break;
        }
    }
    fclose(f);
    return rc;
}

/* --------------------------------------------------------- host values */

static long long host_memory(void) {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (long long) pages * page : 0;
}

static long long host_swap(void) {
    struct sysinfo si;
    return sysinfo(&si) == 0 ? (long long) si.totalswap * si.mem_unit : 0;
}

static int host_cpus(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) {
        return CPU_COUNT(&set);
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int) n : 1;
}

/* ------------------------------------------------------------- discovery */

static int has_token(const char *list, const char *token) {
    size_t n = strlen(token);
    for (const char *p = list; (p = strstr(p, token)) != NULL; p += n) {
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) {
            return 1;
        }
    }
    return 0;
}

/* Directory of cgroup `cg` on a hierarchy whose root `root` is mounted at `mnt`. */
static void subsystem_path(char *out, const char *root, const char *mnt, const char *cg) {
    size_t rlen = strlen(root);
    if (strcmp(root, "/") == 0) {
        snprintf(out, PATH_MAX, "%s%s", mnt, strcmp(cg, "/") == 0 ? "" : cg);
    } else if (strcmp(root, cg) == 0) {
        snprintf(out, PATH_MAX, "%s", mnt);
    } else if (strncmp(cg, root, rlen) == 0 && cg[rlen] == '/') {
        snprintf(out, PATH_MAX, "%s%s", mnt, cg + rlen);
    } else {
        snprintf(out, PATH_MAX, "%s", mnt); /* cgroup outside the visible tree */
    }
    if (!dir_exists(out)) {
        snprintf(out, PATH_MAX, "%s", mnt);
    }
}

typedef struct {
    char root[PATH_MAX], mnt[PATH_MAX];
    int found, read_only;
} mount_info;

static void remember_mount(mount_info *m, const char *root, const char *mnt, int ro) {
    /* Prefer the first mount, unless a later one is the canonical /sys/fs/cgroup one. */
    if (m->found && (strncmp(m->mnt, "/sys/fs/cgroup", 14) == 0 || strncmp(mnt, "/sys/fs/cgroup", 14) != 0)) {
        return;
    }
    snprintf(m->root, PATH_MAX, "%s", root);
    snprintf(m->mnt, PATH_MAX, "%s", mnt);
    m->found = 1;
    m->read_only = ro;
}

static void discover(void) {
    char v1_path[NCTRL][PATH_MAX] = {{0}};
    char v2_path[PATH_MAX] = {0};
    mount_info v1_mount[NCTRL], v2_mount;
    memset(v1_mount, 0, sizeof(v1_mount));
    memset(&v2_mount, 0, sizeof(v2_mount));

    /* /proc/self/cgroup: "hierarchy-id:controller,list:/path" ("0::/path" for v2). */
    FILE *f = open_file("/proc/self/cgroup", NULL);
    if (f != NULL) {
        char line[PATH_MAX + 256];
        while (fgets(line, sizeof(line), f) != NULL) {
            line[strcspn(line, "\n")] = '\0';
            char *c1 = strchr(line, ':');
            char *c2 = c1 != NULL ? strchr(c1 + 1, ':') : NULL;
            if (c2 == NULL) {
                continue;
            }
            *c1 = *c2 = '\0';
            const char *ctrls = c1 + 1, *path = c2 + 1;
            if (strcmp(line, "0") == 0 && *ctrls == '\0') {
                snprintf(v2_path, PATH_MAX, "%s", path);
            }
            for (int i = 0; i < NCTRL; i++) {
                if (has_token(ctrls, ctrl_names[i])) {
                    snprintf(v1_path[i], PATH_MAX, "%s", path);
                }
            }
        }
        fclose(f);
    }

    /* /proc/self/mountinfo: "id parent maj:min root mountpoint opts [tags] - fstype source superopts". */
    f = open_file("/proc/self/mountinfo", NULL);
    if (f != NULL) {
        char line[3 * PATH_MAX];
        while (fgets(line, sizeof(line), f) != NULL) {
            char root[PATH_MAX], mnt[PATH_MAX], opts[256], fstype[64], superopts[512];
            char *sep = strstr(line, " - ");
            if (sep == NULL || sscanf(line, "%*s %*s %*s %4095s %4095s %255s", root, mnt, opts) != 3 ||
                sscanf(sep + 3, "%63s %*s %511s", fstype, superopts) != 2) {
                continue;
            }
            int ro = has_token(opts, "ro");
            if (strcmp(fstype, "cgroup2") == 0) {
                remember_mount(&v2_mount, root, mnt, ro);
            } else if (strcmp(fstype, "cgroup") == 0) {
                for (int i = 0; i < NCTRL; i++) {
                    if (has_token(superopts, ctrl_names[i])) {
                        remember_mount(&v1_mount[i], root, mnt, ro);
                    }
                }
            }
        }
        fclose(f);
    }

    /* Controllers available on the unified hierarchy. */
    char v2_controllers[512] = "";
    if (v2_mount.found) {
        read_line(v2_mount.mnt, "cgroup.controllers", v2_controllers, sizeof(v2_controllers));
    }

    for (int i = 0; i < NCTRL; i++) {
        controller *c = &ctrl[i];
        if (v1_mount[i].found && v1_path[i][0] != '\0') {
            c->version = 1;
            c->read_only = v1_mount[i].read_only;
            snprintf(c->mount, PATH_MAX, "%s", v1_mount[i].mnt);
            subsystem_path(c->path, v1_mount[i].root, v1_mount[i].mnt, v1_path[i]);
        } else if (v2_mount.found && v2_path[0] != '\0') {
            char list[520];
            snprintf(list, sizeof(list), "%s", v2_controllers);
            for (char *p = list; *p; p++) {
                if (*p == ' ') {
                    *p = ',';
                }
            }
            if (has_token(list, ctrl_names[i])) {
                c->version = 2;
                c->read_only = v2_mount.read_only;
                snprintf(c->mount, PATH_MAX, "%s", v2_mount.mnt);
                subsystem_path(c->path, v2_mount.root, v2_mount.mnt, v2_path);
            }
        }
    }
}

/* ------------------------------------------------------- hierarchy walk */

/* Calls fn on the process's cgroup directory and each parent up to the mount point. */
static void walk_up(const controller *c, void (*fn)(const char *dir, void *ctx), void *ctx) {
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s", c->path);
    size_t mlen = strlen(c->mount);
    for (;;) {
        fn(dir, ctx);
        size_t len = strlen(dir);
        if (len <= mlen) {
            break;
        }
        char *slash = strrchr(dir, '/');
        if (slash == NULL || (size_t) (slash - dir) < mlen) {
            break;
        }
        *slash = '\0';
    }
}

typedef struct {
    const char *file;     /* limit file */
    long long ceiling;    /* values >= ceiling mean "unlimited" */
    long long min;        /* tightest limit seen, or UNLIMITED */
    int seen;             /* at least one file could be read */
} limit_walk;

static void limit_step(const char *dir, void *ctx) {
    limit_walk *w = ctx;
    long long v;
    if (read_value(dir, w->file, &v) != 0) {
        return;
    }
    w->seen = 1;
    if (v >= 0 && v < w->ceiling && (w->min == UNLIMITED || v < w->min)) {
        w->min = v;
    }
}

/* Tightest limit in `file` along the hierarchy: bytes, UNLIMITED, or NOT_AVAILABLE. */
static long long hierarchical_limit(const controller *c, const char *file, long long ceiling) {
    limit_walk w = {file, ceiling, UNLIMITED, 0};
    walk_up(c, limit_step, &w);
    return w.seen ? w.min : NOT_AVAILABLE;
}

static long long min_limit(long long a, long long b) {
    if (a < 0) {
        return b < 0 ? (a == NOT_AVAILABLE && b == NOT_AVAILABLE ? NOT_AVAILABLE : UNLIMITED) : b;
    }
    return b < 0 || a < b ? a : b;
}

/* ------------------------------------------------------------- memory */

static long long memory_limit(void) {
    const controller *c = &ctrl[MEMORY];
    long long host = host_memory();
    if (c->version == 1) {
        long long lim = hierarchical_limit(c, "memory.limit_in_bytes", host);
        long long h;
        /* Limits of ancestors outside our view (e.g. inside a container). */
        if (read_keyed(c->path, "memory.stat", "hierarchical_memory_limit", &h) == 0 && h < host) {
            lim = min_limit(lim, h);
        }
        return lim;
    }
    if (c->version == 2) {
        return hierarchical_limit(c, "memory.max", host);
    }
    return NOT_AVAILABLE;
}

long long svm_container_memory_limit_in_bytes(void) {
    return memory_limit();
}

long long svm_container_memory_and_swap_limit_in_bytes(void) {
    const controller *c = &ctrl[MEMORY];
    long long mem = memory_limit();
    if (c->version == 1) {
        long long ceiling = host_memory() + host_swap();
        long long memsw = hierarchical_limit(c, "memory.memsw.limit_in_bytes", ceiling);
        long long h, swappiness;
        if (memsw == NOT_AVAILABLE) {
            return mem; /* no swap accounting */
        }
        if (read_keyed(c->path, "memory.stat", "hierarchical_memsw_limit", &h) == 0 && h < ceiling) {
            memsw = min_limit(memsw, h);
        }
        if (memsw != UNLIMITED && read_value(c->path, "memory.swappiness", &swappiness) == 0 && swappiness == 0) {
            return mem; /* swap limit set, but swapping disabled */
        }
        return memsw;
    }
    if (c->version == 2) {
        long long swap = hierarchical_limit(c, "memory.swap.max", LLONG_MAX);
        if (swap == NOT_AVAILABLE) {
            return mem;
        }
        if (mem == UNLIMITED || swap == UNLIMITED) {
            return UNLIMITED;
        }
        return mem < 0 ? mem : mem + swap;
    }
    return NOT_AVAILABLE;
}

long long svm_container_memory_soft_limit_in_bytes(void) {
    const controller *c = &ctrl[MEMORY];
    long long v;
    if (c->version == 1 && read_value(c->path, "memory.soft_limit_in_bytes", &v) == 0) {
        return v >= host_memory() ? UNLIMITED : v;
    }
    if (c->version == 2 && read_value(c->path, "memory.low", &v) == 0) {
        return v;
    }
    return NOT_AVAILABLE;
}

static long long memory_value(const char *v1_file, const char *v2_file) {
    const controller *c = &ctrl[MEMORY];
    long long v;
    const char *file = c->version == 1 ? v1_file : c->version == 2 ? v2_file : NULL;
    return file != NULL && read_value(c->path, file, &v) == 0 ? v : NOT_AVAILABLE;
}

static long long memory_stat(const char *v1_key, const char *v2_key) {
    const controller *c = &ctrl[MEMORY];
    long long v;
    const char *key = c->version == 1 ? v1_key : c->version == 2 ? v2_key : NULL;
    return key != NULL && read_keyed(c->path, "memory.stat", key, &v) == 0 ? v : NOT_AVAILABLE;
}

long long svm_container_memory_usage_in_bytes(void) {
    return memory_value("memory.usage_in_bytes", "memory.current");
}

long long svm_container_memory_max_usage_in_bytes(void) {
    return memory_value("memory.max_usage_in_bytes", "memory.peak");
}

long long svm_container_rss_usage_in_bytes(void) {
    return memory_stat("rss", "anon");
}

long long svm_container_cache_usage_in_bytes(void) {
    return memory_stat("cache", "file");
}

/* Host memory, or the container's memory limit when that is lower. */
unsigned long svm_container_physical_memory(void) {
    long long host = host_memory();
    long long lim = containerized ? memory_limit() : UNLIMITED;
    return (unsigned long) (lim > 0 && lim < host ? lim : host);
}

/* ---------------------------------------------------------------- cpu */

typedef struct {
    int version;
    int min_cpus; /* tightest ceil(quota / period), or -1 */
} quota_walk;

static void quota_step(const char *dir, void *ctx) {
    quota_walk *w = ctx;
    long long quota = UNLIMITED, period = 0;
    if (w->version == 1) {
        if (read_value(dir, "cpu.cfs_quota_us", &quota) != 0 || read_value(dir, "cpu.cfs_period_us", &period) != 0) {
            return;
        }
    } else {
        char buf[128], q[32];
        if (read_line(dir, "cpu.max", buf, sizeof(buf)) != 0 || sscanf(buf, "%31s %lld", q, &period) != 2 ||
            parse_value(q, &quota) != 0) {
            return;
        }
    }
    if (quota > 0 && period > 0) {
        int n = (int) ((quota + period - 1) / period);
        if (w->min_cpus < 0 || n < w->min_cpus) {
            w->min_cpus = n;
        }
    }
}

/* Processors allowed by CFS quota/period, or -1 when there is no quota. */
static int quota_cpus(void) {
    const controller *c = &ctrl[CPU];
    if (c->version == 0) {
        return -1;
    }
    quota_walk w = {c->version, -1};
    walk_up(c, quota_step, &w);
    return w.min_cpus;
}

/* Number of CPUs in a list such as "0-3,8,10-11"; -1 if empty or unreadable. */
static int count_cpu_list(const char *s) {
    int count = 0;
    while (*s != '\0') {
        char *end;
        long a = strtol(s, &end, 10), b;
        if (end == s) {
            break;
        }
        b = a;
        if (*end == '-') {
            s = end + 1;
            b = strtol(s, &end, 10);
            if (end == s) {
                break;
            }
        }
        count += (int) (b - a + 1);
        s = *end == ',' ? end + 1 : end;
        if (*end != ',') {
            break;
        }
    }
    return count > 0 ? count : -1;
}

static int cpuset_cpus(void) {
    const controller *c = &ctrl[CPUSET];
    char buf[4096];
    if (c->version == 1 && (read_line(c->path, "cpuset.effective_cpus", buf, sizeof(buf)) == 0 ||
                            read_line(c->path, "cpuset.cpus", buf, sizeof(buf)) == 0)) {
        return count_cpu_list(buf);
    }
    if (c->version == 2 && (read_line(c->path, "cpuset.cpus.effective", buf, sizeof(buf)) == 0 ||
                            read_line(c->path, "cpuset.cpus", buf, sizeof(buf)) == 0)) {
        return count_cpu_list(buf);
    }
    return -1;
}

int svm_container_active_processor_count(void) {
    int n = host_cpus();
    int q = quota_cpus(), s = cpuset_cpus();
    if (q > 0 && q < n) {
        n = q;
    }
    if (s > 0 && s < n) {
        n = s;
    }
    return n > 0 ? n : 1;
}

/* ------------------------------------------------------------ initialize */

int svm_container_initialize(int version) {
    if (version > SVM_CONTAINER_VERSION) {
        return ERROR_LIBCONTAINER_TOO_OLD;
    }
    if (version < SVM_CONTAINER_VERSION) {
        return ERROR_LIBCONTAINER_TOO_NEW;
    }
    if (__sync_bool_compare_and_swap(&init_state, 0, 1)) {
        discover();
        int any = 0, all_ro = 1;
        for (int i = 0; i < NCTRL; i++) {
            if (ctrl[i].version != 0) {
                any = 1;
                all_ro &= ctrl[i].read_only;
            }
        }
        long long mem = memory_limit();
        int q = quota_cpus();
        containerized = any && (all_ro || mem > 0 || (q > 0 && q < host_cpus()));
        __sync_synchronize();
        init_state = 2;
    } else {
        while (init_state != 2) {
            sched_yield();
        }
    }
    return containerized ? SUCCESS_IS_CONTAINERIZED : SUCCESS_IS_NOT_CONTAINERIZED;
}

#ifdef SVM_CONTAINER_TESTING
/* Test-only: what was discovered, including values the API does not expose. */
void svm_container_test_dump(FILE *out) {
    for (int i = 0; i < NCTRL; i++) {
        fprintf(out, "controller %-6s: v%d %s path=%s mount=%s\n", ctrl_names[i], ctrl[i].version,
                ctrl[i].read_only ? "ro" : "rw", ctrl[i].path, ctrl[i].mount);
    }
    long long shares = -1;
    if (ctrl[CPU].version == 1) {
        read_value(ctrl[CPU].path, "cpu.shares", &shares);
    } else if (ctrl[CPU].version == 2) {
        read_value(ctrl[CPU].path, "cpu.weight", &shares);
    }
    fprintf(out, "cpu quota cpus=%d cpuset cpus=%d host cpus=%d shares/weight=%lld\n", quota_cpus(), cpuset_cpus(),
            host_cpus(), shares);
}
#endif
