/* The Ventus driver API (umbra/vt_driver.h) on top of libumbra. */
#include "umbra/vt_driver.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "loader/elf.h"
#include "umbra/ventus.h"

#define VT_MAGIC 0x56544456u    /* "VDTV": catches handles that are not ours */

typedef struct vt_buf { uint64_t base, size; } vt_buf;

typedef struct vt_dev {
    uint32_t magic;
    umb_device *dev;
    uint64_t next;              /* bump pointer of vt_buf_alloc */
    vt_buf *bufs;
    size_t nbufs, cap;
    uint8_t *image;             /* the uploaded ELF image (umb_elf points into it) */
    umb_elf elf;
    bool has_elf;
    uint64_t entry;             /* where warps start */
    int last_result;            /* of the last vt_start */
    umb_stats stats;
    FILE *trace;
    char error[1024];
} vt_dev;

static int fail(vt_dev *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(vt_dev *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->error, sizeof d->error, fmt, ap);
    va_end(ap);
    return -1;
}

static vt_dev *handle(vt_device_h h)
{
    vt_dev *d = h;
    return d && d->magic == VT_MAGIC ? d : NULL;
}

int vt_dev_open(vt_device_h *hdevice)
{
    if (!hdevice) return -1;
    *hdevice = NULL;
    vt_dev *d = calloc(1, sizeof *d);
    if (!d) return -1;
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    if (umb_device_create(&cfg, &d->dev) != UMB_OK) {
        free(d);
        return -1;
    }
    /* Like the pocl Ventus device: the whole code window exists from the start (kernels keep
     * globals such as the crt's print-buffer pointers there). */
    if (umb_mem_map(d->dev, VT_CODE_BASE, VT_CODE_SIZE) != UMB_OK) {
        umb_device_destroy(d->dev);
        free(d);
        return -1;
    }
    d->magic = VT_MAGIC;
    d->next = VT_BUF_BASE;
    d->entry = VT_CODE_BASE;
    *hdevice = d;
    return 0;
}

int vt_dev_close(vt_device_h hdevice)
{
    vt_dev *d = handle(hdevice);
    if (!d) return -1;
    if (d->has_elf) umb_elf_close(&d->elf);
    free(d->image);
    free(d->bufs);
    umb_device_destroy(d->dev);
    d->magic = 0;
    free(d);
    return 0;
}

int vt_root_mem_alloc(vt_device_h hdevice, int taskID)
{
    (void)taskID;
    return handle(hdevice) ? 0 : -1;
}

int vt_root_mem_free(vt_device_h hdevice, int taskID)
{
    (void)taskID;
    return handle(hdevice) ? 0 : -1;
}

/* ---- buffers ---- */

int vt_buf_alloc(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, int BUF_TYPE,
                 uint64_t taskID, uint64_t kernelID)
{
    (void)BUF_TYPE, (void)taskID, (void)kernelID;
    vt_dev *d = handle(hdevice);
    if (!d || !vaddr) return d ? fail(d, "vt_buf_alloc: vaddr is NULL") : -1;
    uint64_t len = (size + 4095) & ~(uint64_t)4095;
    if (len == 0) len = 4096;   /* pocl may ask for empty buffers; give them a page */
    if (size > (1ull << 40) || d->next + len < d->next)
        return fail(d, "vt_buf_alloc: cannot allocate 0x%llx bytes at 0x%llx", (unsigned long long)size,
                    (unsigned long long)d->next);
    if (d->nbufs == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 16;
        vt_buf *nb = realloc(d->bufs, cap * sizeof *nb);
        if (!nb) return fail(d, "vt_buf_alloc: out of host memory");
        d->bufs = nb, d->cap = cap;
    }
    if (umb_mem_map(d->dev, d->next, len) != UMB_OK)
        return fail(d, "vt_buf_alloc: cannot map 0x%llx bytes: %s", (unsigned long long)len,
                    umb_device_last_error(d->dev));
    d->bufs[d->nbufs++] = (vt_buf){d->next, len};
    *vaddr = d->next;
    d->next += len;
    return 0;
}

static int free_one(vt_dev *d, uint64_t addr, const char *who)
{
    for (size_t i = 0; i < d->nbufs; i++) {
        if (d->bufs[i].base != addr) continue;
        umb_mem_unmap(d->dev, addr, d->bufs[i].size);
        d->bufs[i] = d->bufs[--d->nbufs];
        return 0;
    }
    return fail(d, "%s: 0x%llx is not a buffer of vt_buf_alloc", who, (unsigned long long)addr);
}

int vt_buf_free(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, uint64_t taskID, uint64_t kernelID)
{
    (void)size, (void)taskID, (void)kernelID;
    vt_dev *d = handle(hdevice);
    if (!d) return -1;
    if (vaddr && *vaddr) return free_one(d, *vaddr, "vt_buf_free");
    for (size_t i = 0; i < d->nbufs; i++) umb_mem_unmap(d->dev, d->bufs[i].base, d->bufs[i].size);
    d->nbufs = 0;
    return 0;
}

int vt_one_buf_free(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, uint64_t taskID, uint64_t kernelID)
{
    (void)size, (void)taskID, (void)kernelID;
    vt_dev *d = handle(hdevice);
    if (!d) return -1;
    if (!vaddr) return fail(d, "vt_one_buf_free: vaddr is NULL");
    return free_one(d, *vaddr, "vt_one_buf_free");
}

int vt_copy_to_dev(vt_device_h hdevice, uint64_t dev_vaddr, const void *src, uint64_t size,
                   uint64_t taskID, uint64_t kernelID)
{
    (void)taskID, (void)kernelID;
    vt_dev *d = handle(hdevice);
    if (!d) return -1;
    if (!src && size) return fail(d, "vt_copy_to_dev: src is NULL");
    if (size && umb_mem_copy_to_device(d->dev, dev_vaddr, src, size) != UMB_OK)
        return fail(d, "vt_copy_to_dev: %s", umb_device_last_error(d->dev));
    return 0;
}

int vt_copy_from_dev(vt_device_h hdevice, uint64_t dev_vaddr, void *dst, uint64_t size,
                     uint64_t taskID, uint64_t kernelID)
{
    (void)taskID, (void)kernelID;
    vt_dev *d = handle(hdevice);
    if (!d) return -1;
    if (!dst && size) return fail(d, "vt_copy_from_dev: dst is NULL");
    if (size && umb_mem_copy_from_device(d->dev, dev_vaddr, dst, size) != UMB_OK)
        return fail(d, "vt_copy_from_dev: %s", umb_device_last_error(d->dev));
    return 0;
}

/* ---- kernels ---- */

int vt_upload_kernel_bytes(vt_device_h hdevice, const void *content, uint64_t size, int taskID)
{
    (void)taskID;
    vt_dev *d = handle(hdevice);
    if (!d) return -1;
    if (!content || size == 0) return fail(d, "vt_upload_kernel_bytes: empty kernel");
    if (size < 4 || memcmp(content, "\x7f" "ELF", 4)) {
        /* raw code: the image the pocl driver writes at the start of the code window */
        if (size > VT_CODE_SIZE) return fail(d, "vt_upload_kernel_bytes: 0x%llx bytes do not fit the "
                                             "code window", (unsigned long long)size);
        d->entry = VT_CODE_BASE;
        return vt_copy_to_dev(d, VT_CODE_BASE, content, size, 0, 0);
    }
    uint8_t *img = malloc(size);
    if (!img) return fail(d, "vt_upload_kernel_bytes: out of host memory");
    memcpy(img, content, size);
    umb_elf e;
    if (umb_elf_open_memory(&e, "kernel image", img, size) != UMB_OK) {
        fail(d, "vt_upload_kernel_bytes: %s", e.error);
        free(img);
        return -1;
    }
    if (umb_elf_load_segments(&e, d->dev, 0) != UMB_OK) {
        fail(d, "vt_upload_kernel_bytes: %s", e.error);
        umb_elf_close(&e);
        free(img);
        return -1;
    }
    if (d->has_elf) umb_elf_close(&d->elf);
    free(d->image);
    d->image = img;
    d->elf = e;
    d->has_elf = true;
    d->entry = e.entry;
    return 0;
}

int vt_upload_kernel_file(vt_device_h hdevice, const char *filename, int taskID)
{
    vt_dev *d = handle(hdevice);
    if (!d) return -1;
    umb_elf e;
    if (!filename) return fail(d, "vt_upload_kernel_file: no file name");
    if (umb_elf_open_file(&e, filename) != UMB_OK) return fail(d, "vt_upload_kernel_file: %s", e.error);
    int rc = vt_upload_kernel_bytes(hdevice, e.data, e.size, taskID);
    if (rc == 0) {
        /* name the file in later messages instead of "kernel image" */
        free(d->elf.path);
        d->elf.path = strdup(filename);
    }
    umb_elf_close(&e);
    return rc;
}

int vt_umbra_kernel_symbol(vt_device_h hdevice, const char *name, uint64_t *addr)
{
    vt_dev *d = handle(hdevice);
    if (!d) return -1;
    if (!d->has_elf) return fail(d, "vt_umbra_kernel_symbol: no ELF kernel uploaded");
    umb_elf_sym s;
    if (!name || !addr || umb_elf_find_symbol(&d->elf, name, &s) != UMB_OK)
        return fail(d, "vt_umbra_kernel_symbol: %s", d->elf.error);
    *addr = s.value;
    return 0;
}

int vt_start(vt_device_h hdevice, void *metaData, uint64_t taskID)
{
    (void)taskID;
    vt_dev *d = handle(hdevice);
    if (!d) return -1;
    if (!metaData) return fail(d, "vt_start: metaData is NULL");
    const struct meta_data *m = metaData;
    char name[48];
    snprintf(name, sizeof name, "kernel %llu", (unsigned long long)m->kernel_id);
    umb_ventus_launch l = {
        .start_pc = d->entry, .kernel_id = m->kernel_id,
        .grid = {m->kernel_size[0], m->kernel_size[1], m->kernel_size[2]},
        .wf_size = m->wf_size, .wg_size = m->wg_size, .metadata_base = m->metaDataBaseAddr,
        .lds_size = m->ldsSize, .pds_size = m->pdsSize, .sgpr_usage = m->sgprUsage,
        .vgpr_usage = m->vgprUsage, .pds_base = m->pdsBaseAddr, .name = name,
    };
    umb_ventus_options opt = {.trace = d->trace};
    umb_stats st;
    memset(&st, 0, sizeof st);
    umb_status s = umb_ventus_run(d->dev, &l, &opt, &st);
    umb_stats_add(&d->stats, &st);
    if (s != UMB_OK) {
        d->last_result = -1;
        return fail(d, "vt_start: %s: %s", umb_status_name(s), umb_device_last_error(d->dev));
    }
    d->last_result = 0;
    return 0;
}

int vt_ready_wait(vt_device_h hdevice, uint64_t timeout)
{
    (void)timeout;
    vt_dev *d = handle(hdevice);
    return d ? d->last_result : -1;
}

int vt_dump_perf(vt_device_h hdevice, FILE *stream)
{
    vt_dev *d = handle(hdevice);
    if (!d || !stream) return -1;
    umb_stats_write_text(&d->stats, stream);
    return 0;
}

const char *vt_umbra_last_error(vt_device_h hdevice)
{
    vt_dev *d = handle(hdevice);
    return d ? d->error : "not a device handle of vt_dev_open";
}

int vt_umbra_set_trace(vt_device_h hdevice, FILE *trace)
{
    vt_dev *d = handle(hdevice);
    if (!d) return -1;
    d->trace = trace;
    return 0;
}

int vt_umbra_set_max_instructions(vt_device_h hdevice, uint64_t n)
{
    vt_dev *d = handle(hdevice);
    if (!d) return -1;
    umb_device_config cfg = *umb_device_get_config(d->dev);
    cfg.max_instructions = n;
    umb_device_set_config(d->dev, &cfg);
    return 0;
}

int vt_umbra_stats(vt_device_h hdevice, umb_stats *out)
{
    vt_dev *d = handle(hdevice);
    if (!d || !out) return -1;
    *out = d->stats;
    return 0;
}
