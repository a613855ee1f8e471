/* A stand-in libnvidia-ml.so.1 for tests and benchmarks: the real nvidia-ml-py binding loads it
 * like the driver's library. What it answers comes from a small text file named by the
 * environment variable NVML_STANDIN_CONFIG, read again whenever the file changes, so a test can
 * change the "GPU" while the monitor runs. One "key value" per line:
 *
 *   init_error N      nvmlInit fails with NVML error code N (0: succeeds)
 *   fail N            every call after init fails with N (a driver update under a running app)
 *   count N           number of GPUs (default 1)
 *   lost MASK         GPUs (bit i = GPU i) that answer NVML_ERROR_GPU_IS_LOST
 *   unsupported NAME  a field every GPU answers NVML_ERROR_NOT_SUPPORTED for: util, memory,
 *                     temp, power, limit, clocks, fan, pstate, reasons, procs, pcie
 *   gI.FIELD VALUE    GPU I's value: util memutil mem_total mem_used temp power_mw limit_mw
 *                     min_limit_mw max_limit_mw sm_clock mem_clock max_sm_clock max_mem_clock
 *                     fan pstate reasons pid pid_mem pcie_gen pcie_width
 *   gI.name TEXT      GPU I's name
 *
 * Built with -DSTANDIN_OLD_DRIVER it lacks nvmlDeviceGetFanSpeed and the clock-event-reason
 * functions, like an older driver. Calls are counted per function name (NVML_STANDIN_COUNTS
 * names a file the counts are written to at nvmlShutdown).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdint.h>

#define MAXGPU 16
typedef void *nvmlDevice_t;
typedef struct { unsigned long long total, free, used; } nvmlMemory_t;
typedef struct { unsigned int gpu, memory; } nvmlUtilization_t;
typedef struct { unsigned int pid; unsigned long long usedGpuMemory; unsigned int gi, ci; } nvmlProcessInfo_t;

typedef struct {
    char name[96];
    long long v[21];
} gpu_t;
static const char *FIELDS[] = {"util", "memutil", "mem_total", "mem_used", "temp", "power_mw",
    "limit_mw", "min_limit_mw", "max_limit_mw", "sm_clock", "mem_clock", "max_sm_clock",
    "max_mem_clock", "fan", "pstate", "reasons", "pid", "pid_mem", "pcie_gen", "pcie_width", NULL};
enum { UTIL, MEMUTIL, MEM_TOTAL, MEM_USED, TEMP, POWER, LIMIT, MINLIM, MAXLIM, SMCLK, MEMCLK,
       MAXSM, MAXMEM, FAN, PSTATE, REASONS, PID, PIDMEM, PCIEGEN, PCIEW };
static const char *UNSUP[] = {"util", "memory", "temp", "power", "limit", "clocks", "fan",
    "pstate", "reasons", "procs", "pcie", NULL};

static struct {
    int init_error, fail, count;
    unsigned long lost, unsupported;
    gpu_t gpu[MAXGPU];
} cfg;
static struct stat last;
static int initialised;

static void defaults(void) {
    memset(&cfg, 0, sizeof cfg);
    cfg.count = 1;
    for (int i = 0; i < MAXGPU; i++) {
        gpu_t *g = &cfg.gpu[i];
        snprintf(g->name, sizeof g->name, "Stand-in GPU %d", i);
        long long d[] = {50, 20, 8LL << 30, 2LL << 30, 60, 150000, 250000, 100000, 300000, 1500,
                         5000, 2000, 7000, 40, 2, 0, 0, 0, 4, 16};
        memcpy(g->v, d, sizeof d);
    }
}

static void load(void) {
    const char *path = getenv("NVML_STANDIN_CONFIG");
    struct stat st;
    if (!path || stat(path, &st) != 0) {
        if (last.st_ino != (ino_t)-1) { defaults(); memset(&last, 0, sizeof last); last.st_ino = (ino_t)-1; }
        return;
    }
    if (st.st_ino == last.st_ino && st.st_size == last.st_size &&
        st.st_mtim.tv_sec == last.st_mtim.tv_sec && st.st_mtim.tv_nsec == last.st_mtim.tv_nsec)
        return;
    last = st;
    defaults();
    FILE *f = fopen(path, "r");
    if (!f) return;
    char key[64], value[96];
    while (fscanf(f, "%63s %95[^\n]", key, value) == 2) {
        if (!strcmp(key, "init_error")) cfg.init_error = atoi(value);
        else if (!strcmp(key, "fail")) cfg.fail = atoi(value);
        else if (!strcmp(key, "count")) cfg.count = atoi(value) > MAXGPU ? MAXGPU : atoi(value);
        else if (!strcmp(key, "lost")) cfg.lost = strtoul(value, NULL, 0);
        else if (!strcmp(key, "unsupported")) {
            for (int i = 0; UNSUP[i]; i++) if (!strcmp(value, UNSUP[i])) cfg.unsupported |= 1UL << i;
        } else if (key[0] == 'g') {
            char *dot = strchr(key, '.');
            if (!dot) continue;
            int idx = atoi(key + 1);
            if (idx < 0 || idx >= MAXGPU) continue;
            if (!strcmp(dot + 1, "name")) { snprintf(cfg.gpu[idx].name, 96, "%s", value); continue; }
            for (int i = 0; FIELDS[i]; i++)
                if (!strcmp(dot + 1, FIELDS[i])) cfg.gpu[idx].v[i] = strtoll(value, NULL, 0);
        }
    }
    fclose(f);
}

static int unsupported(const char *what) {
    for (int i = 0; UNSUP[i]; i++) if (!strcmp(what, UNSUP[i])) return (cfg.unsupported >> i) & 1;
    return 0;
}

/* the common checks of a device call: 0 and *g set, or the NVML error code */
static int device(nvmlDevice_t h, const char *field, gpu_t **g) {
    if (!initialised) return 1;             /* NVML_ERROR_UNINITIALIZED */
    load();
    if (cfg.fail) return cfg.fail;
    intptr_t i = (intptr_t)h - 1;
    if (i < 0 || i >= cfg.count) return 2;  /* INVALID_ARGUMENT */
    if ((cfg.lost >> i) & 1) return 15;     /* GPU_IS_LOST */
    if (field && unsupported(field)) return 3;  /* NOT_SUPPORTED */
    *g = &cfg.gpu[i];
    return 0;
}
#define DEVICE(field) gpu_t *g = NULL; int rc = device(h, field, &g); if (rc) return rc;

int nvmlInitWithFlags(unsigned int flags) {
    (void)flags;
    memset(&last, 0, sizeof last);
    load();
    if (cfg.init_error) return cfg.init_error;
    initialised = 1;
    return 0;
}
int nvmlInit_v2(void) { return nvmlInitWithFlags(0); }
int nvmlInit(void) { return nvmlInitWithFlags(0); }
int nvmlShutdown(void) { if (!initialised) return 1; initialised = 0; return 0; }

const char *nvmlErrorString(int rc) {
    switch (rc) {
    case 0: return "Success";
    case 1: return "Uninitialized";
    case 2: return "Invalid Argument";
    case 3: return "Not Supported";
    case 4: return "Insufficient Permissions";
    case 6: return "Not Found";
    case 7: return "Insufficient Size";
    case 9: return "Driver Not Loaded";
    case 12: return "Library Not Found";
    case 13: return "Function Not Found";
    case 15: return "GPU is lost";
    case 18: return "RM has detected an NVML/RM version mismatch.";
    default: return "Unknown Error";
    }
}

static int copy_text(const char *text, char *out, unsigned int len) {
    if (strlen(text) + 1 > len) return 7;
    strcpy(out, text);
    return 0;
}

int nvmlSystemGetDriverVersion(char *out, unsigned int len) {
    if (!initialised) return 1;
    return copy_text("555.42.06", out, len);
}
int nvmlSystemGetNVMLVersion(char *out, unsigned int len) {
    if (!initialised) return 1;
    return copy_text("12.555.42.06", out, len);
}
int nvmlSystemGetCudaDriverVersion(int *v) { if (!initialised) return 1; *v = 12050; return 0; }
int nvmlSystemGetCudaDriverVersion_v2(int *v) { return nvmlSystemGetCudaDriverVersion(v); }

int nvmlDeviceGetCount_v2(unsigned int *count) {
    if (!initialised) return 1;
    load();
    if (cfg.fail) return cfg.fail;
    *count = (unsigned int)cfg.count;
    return 0;
}
int nvmlDeviceGetCount(unsigned int *count) { return nvmlDeviceGetCount_v2(count); }

int nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *h) {
    if (!initialised) return 1;
    load();
    if (cfg.fail) return cfg.fail;
    if ((int)index >= cfg.count) return 2;
    if ((cfg.lost >> index) & 1) return 15;
    *h = (nvmlDevice_t)(intptr_t)(index + 1);
    return 0;
}
int nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t *h) {
    return nvmlDeviceGetHandleByIndex_v2(index, h);
}

int nvmlDeviceGetIndex(nvmlDevice_t h, unsigned int *index) {
    DEVICE(NULL) (void)g; *index = (unsigned)((intptr_t)h - 1); return 0;
}
int nvmlDeviceGetName(nvmlDevice_t h, char *out, unsigned int len) {
    DEVICE(NULL) return copy_text(g->name, out, len);
}
int nvmlDeviceGetUUID(nvmlDevice_t h, char *out, unsigned int len) {
    DEVICE(NULL)
    char text[64];
    snprintf(text, sizeof text, "GPU-00000000-0000-0000-0000-%012d", (int)((intptr_t)h));
    return copy_text(text, out, len);
}
int nvmlDeviceGetMemoryInfo(nvmlDevice_t h, nvmlMemory_t *m) {
    DEVICE("memory")
    m->total = (unsigned long long)g->v[MEM_TOTAL];
    m->used = (unsigned long long)g->v[MEM_USED];
    m->free = m->total - m->used;
    return 0;
}
int nvmlDeviceGetUtilizationRates(nvmlDevice_t h, nvmlUtilization_t *u) {
    DEVICE("util") u->gpu = (unsigned)g->v[UTIL]; u->memory = (unsigned)g->v[MEMUTIL]; return 0;
}
int nvmlDeviceGetTemperature(nvmlDevice_t h, int sensor, unsigned int *t) {
    (void)sensor; DEVICE("temp") *t = (unsigned)g->v[TEMP]; return 0;
}
int nvmlDeviceGetPowerUsage(nvmlDevice_t h, unsigned int *p) {
    DEVICE("power") *p = (unsigned)g->v[POWER]; return 0;
}
int nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t h, unsigned int *p) {
    DEVICE("limit") *p = (unsigned)g->v[LIMIT]; return 0;
}
int nvmlDeviceGetPowerManagementLimit(nvmlDevice_t h, unsigned int *p) {
    DEVICE("limit") *p = (unsigned)g->v[LIMIT]; return 0;
}
int nvmlDeviceGetPowerManagementLimitConstraints(nvmlDevice_t h, unsigned int *lo, unsigned int *hi) {
    DEVICE("limit") *lo = (unsigned)g->v[MINLIM]; *hi = (unsigned)g->v[MAXLIM]; return 0;
}
int nvmlDeviceGetPowerManagementDefaultLimit(nvmlDevice_t h, unsigned int *p) {
    DEVICE("limit") *p = (unsigned)g->v[MAXLIM]; return 0;
}
/* clock types: 0 graphics, 1 SM, 2 memory, 3 video */
int nvmlDeviceGetClockInfo(nvmlDevice_t h, int type, unsigned int *c) {
    DEVICE("clocks") *c = (unsigned)(type == 2 ? g->v[MEMCLK] : g->v[SMCLK]); return 0;
}
int nvmlDeviceGetMaxClockInfo(nvmlDevice_t h, int type, unsigned int *c) {
    DEVICE("clocks") *c = (unsigned)(type == 2 ? g->v[MAXMEM] : g->v[MAXSM]); return 0;
}
int nvmlDeviceGetPerformanceState(nvmlDevice_t h, int *p) {
    DEVICE("pstate") *p = (int)g->v[PSTATE]; return 0;
}
int nvmlDeviceGetPowerState(nvmlDevice_t h, int *p) { return nvmlDeviceGetPerformanceState(h, p); }
int nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t h, unsigned int *v) {
    DEVICE("pcie") *v = (unsigned)g->v[PCIEGEN]; return 0;
}
int nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t h, unsigned int *v) {
    DEVICE("pcie") *v = (unsigned)g->v[PCIEW]; return 0;
}
int nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t h, unsigned int *v) {
    DEVICE("pcie") *v = (unsigned)g->v[PCIEGEN]; return 0;
}
int nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t h, unsigned int *v) {
    DEVICE("pcie") *v = (unsigned)g->v[PCIEW]; return 0;
}
int nvmlDeviceGetCudaComputeCapability(nvmlDevice_t h, int *major, int *minor) {
    DEVICE(NULL) *major = 8; *minor = 9; return 0;
}
#ifndef STANDIN_OLD_DRIVER
int nvmlDeviceGetFanSpeed(nvmlDevice_t h, unsigned int *f) {
    DEVICE("fan") *f = (unsigned)g->v[FAN]; return 0;
}
int nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t h, unsigned long long *r) {
    DEVICE("reasons") *r = (unsigned long long)g->v[REASONS]; return 0;
}
int nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t h, unsigned long long *r) {
    return nvmlDeviceGetCurrentClocksEventReasons(h, r);
}
#endif

static int processes(nvmlDevice_t h, unsigned int *count, nvmlProcessInfo_t *infos) {
    DEVICE("procs")
    unsigned int n = g->v[PID] ? 1 : 0;
    if (!infos || *count < n) { int short_ = *count < n; *count = n; return short_ ? 7 : 0; }
    *count = n;
    if (n) {
        infos[0].pid = (unsigned)g->v[PID];
        infos[0].usedGpuMemory = (unsigned long long)g->v[PIDMEM];
        infos[0].gi = 0xFFFFFFFF; infos[0].ci = 0xFFFFFFFF;
    }
    return 0;
}
int nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t h, unsigned int *c, nvmlProcessInfo_t *i) {
    return processes(h, c, i);
}
int nvmlDeviceGetComputeRunningProcesses_v2(nvmlDevice_t h, unsigned int *c, nvmlProcessInfo_t *i) {
    return processes(h, c, i);
}
int nvmlDeviceGetGraphicsRunningProcesses_v3(nvmlDevice_t h, unsigned int *c, nvmlProcessInfo_t *i) {
    DEVICE(NULL) (void)g; (void)i; *c = 0; return 0;
}
