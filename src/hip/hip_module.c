/* Device code: the fat binaries a HIP program registers at start-up, the modules it loads itself,
 * and the kernels and variables in them.
 *
 * A fat binary is a wrapper {magic "HIPF", version, pointer to a clang offload bundle}; the bundle
 * ("__CLANG_OFFLOAD_BUNDLE__", entry count, then per entry offset, size, triple length, triple)
 * holds one code object per target ("hipv4-amdgcn-amd-amdhsa--gfx1100", target features after a
 * colon). umbra loads the gfx1100 entry, on first use: registration runs before main and must
 * not fail or print. Everything read from a fat binary is checked against what is mapped, so a
 * corrupt one is an error message, never a crash. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hip_internal.h"

#define FATBIN_MAGIC 0x48495046u
#define BUNDLE_MAGIC "__CLANG_OFFLOAD_BUNDLE__"
#define BUNDLE_MAGIC_LEN 24
#define MAX_BUNDLE_ENTRIES 1024
#define MAX_IMAGE_BYTES (1ull << 31)

typedef struct managed_var {
    struct managed_var *next;
    char *name;
    void *ptr;
} managed_var;

struct ihipModule_t {
    struct ihipModule_t *next;
    const void *bundle;           /* a registered fat binary's bundle (parsed on first use) */
    uint8_t *image;               /* the code object (a copy) */
    size_t image_size;
    char name[96];
    enum { MOD_PENDING, MOD_LOADED, MOD_FAILED } state;
    hipError_t error;
    char message[1024];
    umb_rdna3_program *prog;
    struct ihipModuleSymbol_t *functions;
    managed_var *managed;
};

typedef struct host_var {
    struct host_var *next;
    struct ihipModule_t *module;
    const void *host;
    char *name;
    size_t size;
} host_var;

/* host stub -> kernel: open addressing, keys are the host functions' addresses */
typedef struct fn_slot {
    const void *host;
    hipFunction_t f;
} fn_slot;

static pthread_mutex_t module_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ihipModule_t *modules;
static host_var *vars;
static fn_slot *fn_table;
static size_t fn_cap, fn_count;

/* ---------------- reading memory we were only pointed at ---------------- */

/* Whether [p, p+n) is mapped in this process (msync fails with ENOMEM on an unmapped page). */
static bool mapped(const void *p, size_t n)
{
    if (!p) return false;
    uintptr_t a = (uintptr_t)p & ~(uintptr_t)4095, e = ((uintptr_t)p + n + 4095) & ~(uintptr_t)4095;
    if (e < a) return false;
    return msync((void *)a, e - a, MS_ASYNC) == 0;
}

static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }

/* The size of an ELF64 image from its headers (the section table is its last part as linkers lay
 * it out; segments too are covered). 0 if it is not a readable ELF64. */
static size_t elf_extent(const uint8_t *p)
{
    if (!mapped(p, 64) || memcmp(p, "\177ELF", 4) || p[4] != 2) return 0;
    uint64_t phoff = rd64(p + 32), shoff = rd64(p + 40);
    uint16_t phentsize = rd16(p + 54), phnum = rd16(p + 56), shentsize = rd16(p + 58), shnum = rd16(p + 60);
    uint64_t end = 64;
    if (shoff && shoff + (uint64_t)shentsize * shnum > end) end = shoff + (uint64_t)shentsize * shnum;
    if (phoff && phoff + (uint64_t)phentsize * phnum > end) end = phoff + (uint64_t)phentsize * phnum;
    if (end > MAX_IMAGE_BYTES || !mapped(p, end)) return 0;
    for (uint16_t i = 0; phoff && phentsize >= 56 && i < phnum; i++) {
        const uint8_t *ph = p + phoff + (uint64_t)i * phentsize;
        uint64_t e = rd64(ph + 8) + rd64(ph + 32);   /* p_offset + p_filesz */
        if (e > end && e <= MAX_IMAGE_BYTES) end = e;
    }
    for (uint16_t i = 0; shoff && shentsize >= 64 && i < shnum; i++) {
        const uint8_t *sh = p + shoff + (uint64_t)i * shentsize;
        if (rd32(sh + 4) == 8) continue;   /* SHT_NOBITS */
        uint64_t e = rd64(sh + 24) + rd64(sh + 32);   /* sh_offset + sh_size */
        if (e > end && e <= MAX_IMAGE_BYTES) end = e;
    }
    return mapped(p, end) ? (size_t)end : 0;
}

/* ---------------- offload bundles ---------------- */

/* "hipv4-amdgcn-amd-amdhsa--gfx1100:xnack-" -> is it a HIP entry for gfx1100? target gets the
 * target id (after the last '-'). */
static bool entry_for_gfx1100(const char *triple, char *target, size_t tlen)
{
    const char *dash = strrchr(triple, '-');
    snprintf(target, tlen, "%s", dash ? dash + 1 : triple);
    if (strncmp(triple, "hip", 3) || !strstr(triple, "amdgcn-amd-amdhsa")) return false;
    size_t n = strcspn(target, ":");
    return n == 7 && !strncmp(target, "gfx1100", 7);
}

/* Find the gfx1100 code object of a bundle: *image, *size; or an error naming what the bundle has. */
static hipError_t bundle_pick(const uint8_t *b, const uint8_t **image, size_t *size, char *msg, size_t mlen)
{
    if (!mapped(b, BUNDLE_MAGIC_LEN + 8)) return snprintf(msg, mlen, "the offload bundle at %p is not readable", (const void *)b), hipErrorInvalidImage;
    if (!memcmp(b, "CCOB", 4))
        return snprintf(msg, mlen, "the offload bundle is compressed (clang --offload-compress); umbra reads "
                                   "uncompressed bundles: rebuild without --offload-compress"), hipErrorInvalidImage;
    if (memcmp(b, BUNDLE_MAGIC, BUNDLE_MAGIC_LEN))
        return snprintf(msg, mlen, "not a clang offload bundle (no %s magic)", BUNDLE_MAGIC), hipErrorInvalidImage;
    uint64_t n = rd64(b + BUNDLE_MAGIC_LEN);
    if (n == 0 || n > MAX_BUNDLE_ENTRIES) return snprintf(msg, mlen, "offload bundle with %llu entries", (unsigned long long)n), hipErrorInvalidImage;
    const uint8_t *p = b + BUNDLE_MAGIC_LEN + 8;
    char targets[768] = "";
    size_t tl = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (!mapped(p, 24)) return snprintf(msg, mlen, "offload bundle entry %llu is cut short", (unsigned long long)i), hipErrorInvalidImage;
        uint64_t off = rd64(p), sz = rd64(p + 8), tlen = rd64(p + 16);
        if (tlen == 0 || tlen > 1024 || !mapped(p + 24, tlen))
            return snprintf(msg, mlen, "offload bundle entry %llu: bad triple length %llu", (unsigned long long)i,
                            (unsigned long long)tlen), hipErrorInvalidImage;
        char triple[1025], target[1025];
        memcpy(triple, p + 24, tlen);
        triple[tlen] = '\0';
        p += 24 + tlen;
        if (!strncmp(triple, "host-", 5)) continue;
        bool mine = entry_for_gfx1100(triple, target, sizeof target);
        if (tl < sizeof targets) tl += (size_t)snprintf(targets + tl, sizeof targets - tl, "%s%.100s", tl ? ", " : "", target);
        if (!mine) continue;
        if (sz == 0 || sz > MAX_IMAGE_BYTES || off > MAX_IMAGE_BYTES || !mapped(b + off, sz))
            return snprintf(msg, mlen, "offload bundle entry %.200s: %llu bytes at offset %llu are not readable", triple,
                            (unsigned long long)sz, (unsigned long long)off), hipErrorInvalidImage;
        *image = b + off, *size = sz;
        return hipSuccess;
    }
    snprintf(msg, mlen, "the program has no code for gfx1100 (it has: %s); build it with --offload-arch=gfx1100",
             tl ? targets : "no GPU code");
    return hipErrorNoBinaryForGpu;
}

/* A module image as hipModuleLoadData takes it: a code object, a bundle or a fat binary wrapper. */
static hipError_t image_pick(const void *data, const uint8_t **image, size_t *size, char *msg, size_t mlen)
{
    const uint8_t *p = data;
    if (!mapped(p, 16)) return snprintf(msg, mlen, "the image at %p is not readable", data), hipErrorInvalidImage;
    if (rd32(p) == FATBIN_MAGIC) {
        if (!mapped(p, 24)) return snprintf(msg, mlen, "fat binary wrapper cut short"), hipErrorInvalidImage;
        return bundle_pick((const uint8_t *)(uintptr_t)rd64(p + 8), image, size, msg, mlen);
    }
    if (!memcmp(p, "\177ELF", 4)) {
        *size = elf_extent(p);
        *image = p;
        if (!*size) return snprintf(msg, mlen, "the ELF image at %p is malformed or not readable", data), hipErrorInvalidImage;
        return hipSuccess;
    }
    return bundle_pick(p, image, size, msg, mlen);
}

/* ---------------- loading ---------------- */

static hipError_t module_fail(struct ihipModule_t *m, hipError_t e)
{
    m->state = MOD_FAILED, m->error = e;
    return e;
}

/* Load m's code object into the device (module_lock held). */
static hipError_t module_load(hip_runtime *rt, struct ihipModule_t *m)
{
    if (m->state == MOD_LOADED) return hipSuccess;
    if (m->state == MOD_FAILED) return m->error;
    if (m->bundle) {
        const uint8_t *img;
        size_t size;
        hipError_t e = image_pick(m->bundle, &img, &size, m->message, sizeof m->message);
        if (e) return module_fail(m, e);
        if (!(m->image = malloc(size))) return module_fail(m, hipErrorOutOfMemory);
        memcpy(m->image, img, size);
        m->image_size = size;
    }
    char err[768] = "";
    plat_lock(&rt->plat);
    umb_status st = umb_rdna3_program_load_memory(rt->plat.dev, m->name, m->image, m->image_size, &m->prog, err, sizeof err);
    plat_unlock(&rt->plat);
    if (st) {
        snprintf(m->message, sizeof m->message, "%s", err);
        return module_fail(m, st == UMB_ERR_NOMEM ? hipErrorOutOfMemory : hipErrorInvalidImage);
    }
    /* managed variables: the device's pointer variable holds the managed allocation's address */
    for (managed_var *v = m->managed; v; v = v->next) {
        uint64_t addr, size, value = (uint64_t)(uintptr_t)v->ptr;
        if (umb_rdna3_program_find_symbol(m->prog, v->name, &addr, &size) || size < 8) continue;
        plat_to_device(&rt->plat, addr, &value, 8);
    }
    m->state = MOD_LOADED;
    return hipSuccess;
}

static struct ihipModule_t *module_new(const char *name)
{
    struct ihipModule_t *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    snprintf(m->name, sizeof m->name, "%s", name);
    return m;
}

static void module_free(hip_runtime *rt, struct ihipModule_t *m)
{
    if (rt && m->prog) {
        plat_lock(&rt->plat);
        umb_rdna3_program_destroy(m->prog);
        plat_unlock(&rt->plat);
    }
    for (struct ihipModuleSymbol_t *f = m->functions, *n; f; f = n) {
        n = f->next;
        free(f->name);
        free(f);
    }
    for (managed_var *v = m->managed, *n; v; v = n) {
        n = v->next;
        free(v->name);
        free(v);
    }
    free(m->image);
    free(m);
}

/* ---------------- registration by compiled programs ---------------- */

HIP_EXPORT void **__hipRegisterFatBinary(const void *data)
{
    static unsigned count;
    char name[64];
    snprintf(name, sizeof name, "fat binary %u", count++);
    struct ihipModule_t *m = module_new(name);
    if (!m) return NULL;
    const uint8_t *w = data;
    if (!mapped(w, 24) || rd32(w) != FATBIN_MAGIC) {
        m->state = MOD_FAILED, m->error = hipErrorInvalidImage;
        snprintf(m->message, sizeof m->message, "%s: the fat binary wrapper at %p has no HIPF magic", name, data);
    } else {
        m->bundle = (const void *)(uintptr_t)rd64(w + 8);
    }
    pthread_mutex_lock(&module_lock);
    m->next = modules, modules = m;
    pthread_mutex_unlock(&module_lock);
    return (void **)m;
}

static void fn_table_put(const void *host, hipFunction_t f)
{
    if ((fn_count + 1) * 2 > fn_cap) {
        size_t cap = fn_cap ? fn_cap * 2 : 256;
        fn_slot *t = calloc(cap, sizeof *t);
        if (!t) return;
        for (size_t i = 0; i < fn_cap; i++) {
            if (!fn_table[i].host) continue;
            size_t h = ((uintptr_t)fn_table[i].host >> 4) & (cap - 1);
            while (t[h].host) h = (h + 1) & (cap - 1);
            t[h] = fn_table[i];
        }
        free(fn_table);
        fn_table = t, fn_cap = cap;
    }
    size_t h = ((uintptr_t)host >> 4) & (fn_cap - 1);
    while (fn_table[h].host && fn_table[h].host != host) h = (h + 1) & (fn_cap - 1);
    if (!fn_table[h].host) fn_count++;
    fn_table[h] = (fn_slot){ host, f };
}

static hipFunction_t fn_table_get(const void *host)
{
    if (!fn_cap) return NULL;
    size_t h = ((uintptr_t)host >> 4) & (fn_cap - 1);
    while (fn_table[h].host) {
        if (fn_table[h].host == host) return fn_table[h].f;
        h = (h + 1) & (fn_cap - 1);
    }
    return NULL;
}

static hipFunction_t function_new(struct ihipModule_t *m, const char *name)
{
    for (hipFunction_t f = m->functions; f; f = f->next)
        if (!strcmp(f->name, name)) return f;
    hipFunction_t f = calloc(1, sizeof *f);
    if (!f || !(f->name = strdup(name))) return free(f), NULL;
    f->module = m;
    f->next = m->functions, m->functions = f;
    return f;
}

HIP_EXPORT void __hipRegisterFunction(void **modules_, const void *hostFunction, char *deviceFunction,
                                      const char *deviceName, unsigned int threadLimit, void *tid, void *bid,
                                      dim3 *blockDim, dim3 *gridDim, int *wSize)
{
    (void)deviceFunction, (void)threadLimit, (void)tid, (void)bid, (void)blockDim, (void)gridDim, (void)wSize;
    struct ihipModule_t *m = (struct ihipModule_t *)modules_;
    if (!m || !hostFunction || !deviceName) return;
    pthread_mutex_lock(&module_lock);
    hipFunction_t f = function_new(m, deviceName);
    if (f) fn_table_put(hostFunction, f);
    pthread_mutex_unlock(&module_lock);
}

HIP_EXPORT void __hipRegisterVar(void **modules_, void *var, char *hostVar, char *deviceVar, int ext, size_t size,
                                 int constant, int global)
{
    (void)hostVar, (void)ext, (void)constant, (void)global;
    struct ihipModule_t *m = (struct ihipModule_t *)modules_;
    if (!m || !var || !deviceVar) return;
    host_var *v = calloc(1, sizeof *v);
    if (!v || !(v->name = strdup(deviceVar))) {
        free(v);
        return;
    }
    v->module = m, v->host = var, v->size = size;
    pthread_mutex_lock(&module_lock);
    v->next = vars, vars = v;
    pthread_mutex_unlock(&module_lock);
}

/* A `__managed__` variable: managed memory holds it (with its initial value) and the device's
 * variable of that name, a pointer, is set to it when the module loads. */
HIP_EXPORT void __hipRegisterManagedVar(void *hipModule, void **pointer, void *init_value, const char *name,
                                        size_t size, unsigned align)
{
    (void)align;
    struct ihipModule_t *m = hipModule;
    if (!m || !pointer || !name || !size) return;
    void *p = NULL;
    if (hipMallocManaged(&p, size, hipMemAttachGlobal) != hipSuccess) return;
    if (init_value) memcpy(p, init_value, size);
    *pointer = p;
    managed_var *v = calloc(1, sizeof *v);
    if (!v || !(v->name = strdup(name))) {
        free(v);
        return;
    }
    v->ptr = p;
    pthread_mutex_lock(&module_lock);
    v->next = m->managed, m->managed = v;
    pthread_mutex_unlock(&module_lock);
}

/* A texture reference (`texture<T, dim, mode>` at namespace scope): a device variable holding a
 * textureReference, whose textureObject hipBindTexture* set (hip_texref.c); registered as a
 * variable so that hip_symbol_lookup finds it by its host shadow. */
HIP_EXPORT void __hipRegisterTexture(void **modules_, void *var, char *hostVar, char *deviceVar, int type, int norm, int ext)
{
    (void)type, (void)norm;
    __hipRegisterVar(modules_, var, hostVar, deviceVar, ext, sizeof(textureReference), 0, 0);
}

/* Surface references (`surface<void, dim>`) are not supported: their registration is recorded
 * nowhere (HIP 5.2 has no API to bind them either). */
HIP_EXPORT void __hipRegisterSurface(void **modules_, void *var, char *hostVar, char *deviceVar, int type, int ext)
{
    (void)modules_, (void)var, (void)hostVar, (void)deviceVar, (void)type, (void)ext;
}

HIP_EXPORT void __hipUnregisterFatBinary(void **modules_)
{
    struct ihipModule_t *m = (struct ihipModule_t *)modules_;
    if (!m) return;
    hip_runtime *rt = hip_rt();
    if (rt) hip_sync_all(rt);   /* nothing may still run its code */
    pthread_mutex_lock(&module_lock);
    struct ihipModule_t **pp = &modules;
    while (*pp && *pp != m) pp = &(*pp)->next;
    if (*pp) *pp = m->next;
    for (host_var **vp = &vars; *vp;) {
        host_var *v = *vp;
        if (v->module == m) {
            *vp = v->next;
            free(v->name);
            free(v);
        } else {
            vp = &v->next;
        }
    }
    for (size_t i = 0; i < fn_cap; i++)
        /* (an earlier module's functions are tombstones already: host kept, f NULL) */
        if (fn_table[i].host && fn_table[i].f && fn_table[i].f->module == m) fn_table[i].f = NULL;   /* tombstone */
    pthread_mutex_unlock(&module_lock);
    module_free(rt, m);
}

/* ---------------- device memory of the modules ---------------- */

bool hip_module_holds(uint64_t addr, uint64_t size)
{
    bool in = false;
    pthread_mutex_lock(&module_lock);
    for (struct ihipModule_t *m = modules; m && !in; m = m->next) {
        if (m->state != MOD_LOADED) continue;
        uint64_t base = umb_rdna3_program_base(m->prog), len = umb_rdna3_program_code_words(m->prog) * 4;
        in = addr >= base && addr - base <= len && size <= len - (addr - base);
    }
    pthread_mutex_unlock(&module_lock);
    return in;
}

/* ---------------- lookups for launches and copies ---------------- */

/* Resolve f's kernel in its (loaded) module; module_lock held. */
static hipError_t resolve(hip_runtime *rt, hipFunction_t f, const char *api)
{
    if (f->ki) return hipSuccess;
    hipError_t e = module_load(rt, f->module);
    if (e) return hip_fail(e, api, "%s", f->module->message);
    const umb_rdna3_kernel_info *ki = umb_rdna3_program_find_kernel(f->module->prog, f->name);
    if (!ki) return hip_fail(hipErrorInvalidDeviceFunction, api, "%s has no kernel %s", f->module->name, f->name);
    f->ki = ki;
    return hipSuccess;
}

hipError_t hip_function_ready(hip_runtime *rt, hipFunction_t f, const char *api)
{
    pthread_mutex_lock(&module_lock);
    hipError_t e = resolve(rt, f, api);
    pthread_mutex_unlock(&module_lock);
    return e;
}

hipError_t hip_function_for_host(hip_runtime *rt, const void *host_fn, hipFunction_t *out, const char *api)
{
    pthread_mutex_lock(&module_lock);
    hipFunction_t f = fn_table_get(host_fn);
    hipError_t e = f ? resolve(rt, f, api)
                     : hip_fail(hipErrorInvalidDeviceFunction, api, "%p is not a registered kernel", host_fn);
    pthread_mutex_unlock(&module_lock);
    if (!e) *out = f;
    return e;
}

const umb_rdna3_program *hip_function_program(hipFunction_t f) { return f->module->prog; }

hipError_t hip_symbol_lookup(hip_runtime *rt, const void *shadow, uint64_t *addr, size_t *size, const char *api)
{
    pthread_mutex_lock(&module_lock);
    host_var *v = vars;
    while (v && v->host != shadow) v = v->next;
    hipError_t e = hipSuccess;
    if (!v) {
        e = hip_fail(hipErrorInvalidSymbol, api, "%p is not a registered __device__ variable", shadow);
    } else if ((e = module_load(rt, v->module))) {
        hip_fail(e, api, "%s", v->module->message);
    } else {
        uint64_t sz;
        if (umb_rdna3_program_find_symbol(v->module->prog, v->name, addr, &sz))
            e = hip_fail(hipErrorInvalidSymbol, api, "the device code has no variable %s", v->name);
        else *size = v->size ? v->size : sz;
    }
    pthread_mutex_unlock(&module_lock);
    return e;
}

/* ---------------- the module API ---------------- */

static hipError_t load_module(hipModule_t *out, const void *data, size_t size, const char *name, const char *api)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    struct ihipModule_t *m = module_new(name);
    if (!m) return hip_ret(hipErrorOutOfMemory);
    const uint8_t *img = data;
    size_t isz = size;
    hipError_t e = size ? hipSuccess : image_pick(data, &img, &isz, m->message, sizeof m->message);
    if (!e && !(m->image = malloc(isz))) e = hipErrorOutOfMemory;
    if (!e) {
        memcpy(m->image, img, isz);
        m->image_size = isz;
        pthread_mutex_lock(&module_lock);
        e = module_load(rt, m);
        pthread_mutex_unlock(&module_lock);
    }
    if (e) {
        hip_fail(e, api, "%s", m->message);
        module_free(rt, m);
        return e;
    }
    pthread_mutex_lock(&module_lock);
    m->next = modules, modules = m;
    pthread_mutex_unlock(&module_lock);
    *out = m;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipModuleLoad(hipModule_t *module, const char *fname)
{
    if (!module || !fname) return hip_ret(hipErrorInvalidValue);
    FILE *f = fopen(fname, "rb");
    if (!f) return hip_fail(hipErrorFileNotFound, "hipModuleLoad", "cannot open %s", fname);
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 1 << 16;
            uint8_t *g = cap <= MAX_IMAGE_BYTES ? realloc(buf, cap) : NULL;
            if (!g) {
                free(buf);
                fclose(f);
                return hip_fail(hipErrorOutOfMemory, "hipModuleLoad", "%s is too large", fname);
            }
            buf = g;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) break;
    }
    fclose(f);
    /* a file: its size is known, so a bundle or wrapper is read from the buffer; a code object
     * is taken whole */
    const uint8_t *img = buf;
    size_t isz = n;
    char msg[1024] = "";
    hipError_t e = hipSuccess;
    if (n >= 4 && memcmp(buf, "\177ELF", 4)) e = image_pick(buf, &img, &isz, msg, sizeof msg);
    if (n < 4) e = hipErrorInvalidImage, snprintf(msg, sizeof msg, "%s is empty", fname);
    if (e) {
        free(buf);
        return hip_fail(e, "hipModuleLoad", "%s: %s", fname, msg);
    }
    e = load_module(module, img, isz, fname, "hipModuleLoad");
    free(buf);
    return e;
}

HIP_EXPORT hipError_t hipModuleLoadData(hipModule_t *module, const void *image)
{
    if (!module || !image) return hip_ret(hipErrorInvalidValue);
    return load_module(module, image, 0, "module image", "hipModuleLoadData");
}

HIP_EXPORT hipError_t hipModuleLoadDataEx(hipModule_t *module, const void *image, unsigned int numOptions,
                                          hipJitOption *options, void **optionValues)
{
    (void)numOptions, (void)options, (void)optionValues;   /* JIT options: code objects need none */
    return hipModuleLoadData(module, image);
}

static bool module_valid(hipModule_t m)
{
    pthread_mutex_lock(&module_lock);
    struct ihipModule_t *o = modules;
    while (o && o != m) o = o->next;
    pthread_mutex_unlock(&module_lock);
    return m && o;
}

HIP_EXPORT hipError_t hipModuleUnload(hipModule_t module)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!module_valid(module) || module->bundle) return hip_ret(hipErrorInvalidHandle);
    hip_sync_all(rt);
    pthread_mutex_lock(&module_lock);
    struct ihipModule_t **pp = &modules;
    while (*pp && *pp != module) pp = &(*pp)->next;
    if (*pp) *pp = module->next;
    pthread_mutex_unlock(&module_lock);
    hip_texref_forget_module(rt, module);
    module_free(rt, module);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module, const char *kname)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!function || !kname) return hip_ret(hipErrorInvalidValue);
    if (!module_valid(module)) return hip_ret(hipErrorInvalidHandle);
    pthread_mutex_lock(&module_lock);
    hipError_t e = module_load(rt, module);
    hipFunction_t f = NULL;
    if (!e && !umb_rdna3_program_find_kernel(module->prog, kname))
        e = hip_fail(hipErrorNotFound, "hipModuleGetFunction", "%s has no kernel %s", module->name, kname);
    else if (!e && !(f = function_new(module, kname))) e = hipErrorOutOfMemory;
    if (!e) e = resolve(rt, f, "hipModuleGetFunction");
    pthread_mutex_unlock(&module_lock);
    if (e) return hip_ret(e);
    *function = f;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipModuleGetGlobal(hipDeviceptr_t *dptr, size_t *bytes, hipModule_t hmod, const char *name)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!name || (!dptr && !bytes)) return hip_ret(hipErrorInvalidValue);
    if (!module_valid(hmod)) return hip_ret(hipErrorInvalidHandle);
    pthread_mutex_lock(&module_lock);
    hipError_t e = module_load(rt, hmod);
    uint64_t addr = 0, size = 0;
    if (!e && umb_rdna3_program_find_symbol(hmod->prog, name, &addr, &size))
        e = hip_fail(hipErrorNotFound, "hipModuleGetGlobal", "%s has no global %s", hmod->name, name);
    pthread_mutex_unlock(&module_lock);
    if (e) return hip_ret(e);
    if (dptr) *dptr = (void *)(uintptr_t)addr;
    if (bytes) *bytes = size;
    return hipSuccess;
}

HIP_EXPORT const char *hipKernelNameRef(const hipFunction_t f) { return f ? f->name : NULL; }

HIP_EXPORT const char *hipKernelNameRefByPtr(const void *hostFunction, hipStream_t stream)
{
    (void)stream;
    pthread_mutex_lock(&module_lock);
    hipFunction_t f = fn_table_get(hostFunction);
    pthread_mutex_unlock(&module_lock);
    return f ? f->name : NULL;
}
