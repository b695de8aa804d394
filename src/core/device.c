/* The device: configuration, device memory and its heap, the last error. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

/* Device heap for umb_mem_alloc: above 4 GiB so that it never collides with the fixed
 * addresses the Ventus driver uses (0x70000000-0x9fffffff) or with 32-bit private/local
 * address spaces. */
#define HEAP_BASE 0x100000000ull
#define HEAP_END 0x00007fff00000000ull
#define heap_base(dev) ((dev)->cfg.heap_size ? (dev)->cfg.heap_base : HEAP_BASE)
#define heap_end(dev) ((dev)->cfg.heap_size ? (dev)->cfg.heap_base + (dev)->cfg.heap_size : HEAP_END)

typedef struct heap_block {
    uint64_t addr, size;
} heap_block;

struct umb_device {
    umb_device_config cfg;
    umb_mem *mem;
    heap_block *blocks; /* live allocations, sorted by address */
    size_t nblocks, cap;
    struct {
        void *state;
        void (*release)(void *state);
    } slots[UMB_DEVICE_SLOT_COUNT];   /* runtimes' per-device state (umb_device_slot_set) */
    char error[2048];
};

void umb_device_config_default(umb_device_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->compute_units = 1;
    cfg->host_threads = 1;
    cfg->quantum = 1;
    cfg->max_instructions = 0;
    cfg->stall_limit = UMB_DEFAULT_STALL_LIMIT;
    cfg->progress = true;
}

static void sanitise_config(umb_device_config *cfg)
{
    if (cfg->compute_units == 0) cfg->compute_units = 1;
    if (cfg->host_threads == 0) cfg->host_threads = 1;
    if (cfg->host_threads > 256) cfg->host_threads = 256;
    if (cfg->quantum == 0) cfg->quantum = 1;
    if (cfg->stall_limit == 0) cfg->stall_limit = UMB_DEFAULT_STALL_LIMIT;
    bool heap_ok = cfg->heap_size && !(cfg->heap_base & 0xfff) && !(cfg->heap_size & 0xfff) &&
                   cfg->heap_base + cfg->heap_size > cfg->heap_base && cfg->heap_base + cfg->heap_size <= (1ull << 56);
    if (!heap_ok) cfg->heap_base = 0, cfg->heap_size = 0;
}

umb_status umb_device_create(const umb_device_config *cfg, umb_device **out)
{
    *out = NULL;
    umb_device *dev = calloc(1, sizeof *dev);
    if (!dev) return UMB_ERR_NOMEM;
    if (cfg) dev->cfg = *cfg;
    else umb_device_config_default(&dev->cfg);
    sanitise_config(&dev->cfg);
    dev->mem = umb_mem_create();
    if (!dev->mem) {
        free(dev);
        return UMB_ERR_NOMEM;
    }
    *out = dev;
    return UMB_OK;
}

void umb_device_destroy(umb_device *dev)
{
    if (!dev) return;
    for (int i = 0; i < UMB_DEVICE_SLOT_COUNT; i++)
        if (dev->slots[i].state && dev->slots[i].release) dev->slots[i].release(dev->slots[i].state);
    umb_mem_destroy(dev->mem);
    free(dev->blocks);
    free(dev);
}

const umb_device_config *umb_device_get_config(const umb_device *dev) { return &dev->cfg; }

void umb_device_set_config(umb_device *dev, const umb_device_config *cfg)
{
    dev->cfg = *cfg;
    sanitise_config(&dev->cfg);
}

umb_mem *umb_device_memory(umb_device *dev) { return dev->mem; }

void *umb_device_slot_get(const umb_device *dev, umb_device_slot slot)
{
    return (unsigned)slot < UMB_DEVICE_SLOT_COUNT ? dev->slots[slot].state : NULL;
}

void umb_device_slot_set(umb_device *dev, umb_device_slot slot, void *state, void (*release)(void *state))
{
    if ((unsigned)slot >= UMB_DEVICE_SLOT_COUNT) return;
    if (dev->slots[slot].state && dev->slots[slot].release && dev->slots[slot].state != state)
        dev->slots[slot].release(dev->slots[slot].state);
    dev->slots[slot].state = state;
    dev->slots[slot].release = release;
}

const char *umb_device_last_error(const umb_device *dev) { return dev->error; }

void umb_device_set_error(umb_device *dev, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dev->error, sizeof dev->error, fmt, ap);
    va_end(ap);
}

void umb_device_clear_error(umb_device *dev) { dev->error[0] = 0; }

const char *umb_status_name(umb_status s)
{
    switch (s) {
    case UMB_OK: return "ok";
    case UMB_ERR_INVALID: return "invalid argument";
    case UMB_ERR_NOMEM: return "out of host memory";
    case UMB_ERR_IO: return "I/O error";
    case UMB_ERR_FORMAT: return "malformed input";
    case UMB_ERR_GUEST_FAULT: return "guest fault";
    case UMB_ERR_BUDGET: return "instruction budget exhausted";
    case UMB_ERR_DEADLOCK: return "deadlock";
    case UMB_ERR_UNSUPPORTED: return "unsupported";
    }
    return "unknown status";
}

/* ---- memory ---- */

umb_status umb_mem_map(umb_device *dev, uint64_t addr, uint64_t size)
{
    if (size && addr + size - 1 < addr) {
        umb_device_set_error(dev, "map: range 0x%llx + 0x%llx wraps around",
                             (unsigned long long)addr, (unsigned long long)size);
        return UMB_ERR_INVALID;
    }
    return umb_mem_map_range(dev->mem, addr, size) ? UMB_OK : UMB_ERR_NOMEM;
}

umb_status umb_mem_unmap(umb_device *dev, uint64_t addr, uint64_t size)
{
    umb_mem_unmap_range(dev->mem, addr, size);
    return UMB_OK;
}

bool umb_mem_is_mapped(const umb_device *dev, uint64_t addr, uint64_t size)
{
    return umb_mem_range_mapped(dev->mem, addr, size);
}

umb_status umb_mem_map_host(umb_device *dev, uint64_t addr, void *host, uint64_t size)
{
    bool overlaps_heap = addr < heap_end(dev) && addr + size > heap_base(dev);
    if (overlaps_heap || !umb_mem_map_host_range(dev->mem, addr, host, size)) {
        umb_device_set_error(dev, "map host memory: [0x%llx, 0x%llx) is %s", (unsigned long long)addr,
                             (unsigned long long)(addr + size),
                             overlaps_heap ? "inside the device heap" : "not page aligned (or host out of memory)");
        return overlaps_heap ? UMB_ERR_INVALID : UMB_ERR_NOMEM;
    }
    return UMB_OK;
}

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

/* First fit between live blocks. */
static bool heap_find(const umb_device *dev, uint64_t size, uint64_t align, uint64_t *addr, size_t *at)
{
    uint64_t cursor = heap_base(dev);
    for (size_t i = 0; i <= dev->nblocks; i++) {
        uint64_t start = align_up(cursor, align);
        uint64_t limit = i < dev->nblocks ? dev->blocks[i].addr : heap_end(dev);
        if (start <= limit && limit - start >= size) {
            *addr = start;
            *at = i;
            return true;
        }
        if (i < dev->nblocks) cursor = dev->blocks[i].addr + dev->blocks[i].size;
    }
    return false;
}

umb_status umb_mem_alloc(umb_device *dev, uint64_t size, uint64_t align, uint64_t *addr_out)
{
    if (align < UMB_PAGE_SIZE) align = UMB_PAGE_SIZE;
    if (size == 0 || (align & (align - 1)) || size > heap_end(dev) - heap_base(dev)) {
        umb_device_set_error(dev, "alloc: bad size 0x%llx or alignment 0x%llx",
                             (unsigned long long)size, (unsigned long long)align);
        return UMB_ERR_INVALID;
    }
    size = align_up(size, UMB_PAGE_SIZE);
    uint64_t addr;
    size_t at;
    if (!heap_find(dev, size, align, &addr, &at)) {
        umb_device_set_error(dev, "alloc: device heap exhausted (0x%llx bytes)", (unsigned long long)size);
        return UMB_ERR_NOMEM;
    }
    if (dev->nblocks == dev->cap) {
        size_t cap = dev->cap ? dev->cap * 2 : 16;
        heap_block *b = realloc(dev->blocks, cap * sizeof *b);
        if (!b) return UMB_ERR_NOMEM;
        dev->blocks = b, dev->cap = cap;
    }
    if (!umb_mem_map_range(dev->mem, addr, size)) return UMB_ERR_NOMEM;
    memmove(&dev->blocks[at + 1], &dev->blocks[at], (dev->nblocks - at) * sizeof *dev->blocks);
    dev->blocks[at] = (heap_block){addr, size};
    dev->nblocks++;
    *addr_out = addr;
    return UMB_OK;
}

umb_status umb_mem_free(umb_device *dev, uint64_t addr)
{
    for (size_t i = 0; i < dev->nblocks; i++) {
        if (dev->blocks[i].addr != addr) continue;
        umb_mem_unmap_range(dev->mem, addr, dev->blocks[i].size);
        memmove(&dev->blocks[i], &dev->blocks[i + 1], (dev->nblocks - i - 1) * sizeof *dev->blocks);
        dev->nblocks--;
        return UMB_OK;
    }
    umb_device_set_error(dev, "free: 0x%llx is not an allocation", (unsigned long long)addr);
    return UMB_ERR_INVALID;
}

umb_status umb_mem_copy_to_device(umb_device *dev, uint64_t addr, const void *src, uint64_t size)
{
    if (umb_mem_write_bytes(dev->mem, addr, src, size)) return UMB_OK;
    umb_device_set_error(dev, "copy to device: [0x%llx, 0x%llx) is not mapped",
                         (unsigned long long)addr, (unsigned long long)(addr + size));
    return UMB_ERR_INVALID;
}

umb_status umb_mem_copy_from_device(umb_device *dev, uint64_t addr, void *dst, uint64_t size)
{
    if (umb_mem_read_bytes(dev->mem, addr, dst, size)) return UMB_OK;
    umb_device_set_error(dev, "copy from device: [0x%llx, 0x%llx) is not mapped",
                         (unsigned long long)addr, (unsigned long long)(addr + size));
    return UMB_ERR_INVALID;
}
