/* The one strict parser of numbers and byte strings in umbra's command lines (every option value
 * and argument value of tools/umbra/ goes through it). A value is refused, never adjusted: no sign
 * where none is allowed, no white space, no trailing characters, no value out of range. */
#ifndef UMBRA_CLI_ARGS_H
#define UMBRA_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Room for a library error message: a path (PATH_MAX) and the text about it, so that no message
 * is cut off. */
enum { UMB_CLI_ERROR_MAX = 4096 + 2048 };

/* Host threads, in both `umbra run` and `umbra ventus run`: the device's limit. */
enum { CLI_MAX_THREADS = 256 };

/* An unsigned integer in [min, max]: decimal digits, or 0x and hex digits. */
bool cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
bool cli_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out);

/* A signed integer in [min, max]: an optional '-', then as cli_parse_u64. */
bool cli_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);

/* A finite or infinite floating-point number as strtod reads it (decimal, hex float, inf, nan),
 * without leading white space or trailing characters. */
bool cli_parse_f64(const char *s, double *out);

/* Hex digit pairs, little-endian byte order as written: "0a0b" -> {0x0a, 0x0b}. At most max bytes.
 * *out is malloc'd (free it); false with *out NULL on anything but pairs of hex digits. */
bool cli_parse_hex_bytes(const char *s, size_t max, uint8_t **out, size_t *n);

#endif
