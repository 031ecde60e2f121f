/* Prints values of minitorch's random generators so tests/test_rng_c.py can compare them
 * with torch bit for bit.
 *
 * This program owns nothing but the printing: it links csrc/kernels/cpu/rng.c and philox.c
 * and runs a script given on the command line against one CPU generator. Build:
 *   gcc -O2 -I csrc csrc/kernels/cpu/rng.c csrc/kernels/cpu/philox.c tests/c/rng_check.c -lm
 * Each command prints one line "<index> <values...>"; floats are printed as their IEEE bit
 * patterns in hex (%08x / %016llx) so nothing is lost to decimal formatting. Commands:
 *   seed S                      manual_seed(S)            (S: unsigned 64-bit decimal)
 *   default                     a fresh generator (torch.Generator())
 *   capability avx2|default     which of torch's kernel builds to reproduce
 *   initial_seed                prints initial_seed()
 *   rand f32|f64 N              torch.rand(N, dtype)
 *   uniform f32|f64 N FROM TO   torch.empty(N, dtype).uniform_(FROM, TO)
 *   randn f32|f64 N             torch.randn(N, dtype)
 *   normal f32|f64 N MEAN STD C normal_(MEAN, STD), C=0 for the non-contiguous path
 *   randint DT N LOW HIGH       torch.randint(LOW, HIGH, (N,), dtype) with DT one of
 *                               bool u8 i8 i16 i32 i64 f32 f64
 *   random32 N / random64 N     raw engine draws
 *   state                       the 5056 state bytes in hex
 *   roundtrip                   get_state, reseed, set_state, get_state: prints "ok" if equal
 *   setstate HEX                set_state from 5056 bytes in hex (e.g. torch.get_rng_state())
 *   setstate_bad                prints the codes for a short and an invalid state
 *   philox_kat                  Philox4x32-10 on the three Random123 known-answer inputs
 *   philox_math                 worst errors of philox.h's log/sincos against libm on a grid:
 *                               cephes logf (ulp), cephes sincosf (abs), log (ulp), sincos (abs)
 *   philox KIND SEED OFF N      KIND: rand_f32 rand_f64 randn_f32 randn_f64 randint_LOW_HIGH;
 *                               prints blocks used, then the values; also checks that the
 *                               per-element functions agree with the fill (prints "ELEMENT
 *                               MISMATCH" otherwise)
 * With no arguments it prints a human-readable demo.
 */
#include "kernels/cpu/rng.h"
#include "kernels/cpu/philox.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
print_f32(const float *v, int64_t n)
{
    int64_t i;
    for (i = 0; i < n; i++) {
        uint32_t b;
        memcpy(&b, &v[i], 4);
        printf(" %08" PRIx32, b);
    }
}

static void
print_f64(const double *v, int64_t n)
{
    int64_t i;
    for (i = 0; i < n; i++) {
        uint64_t b;
        memcpy(&b, &v[i], 8);
        printf(" %016" PRIx64, b);
    }
}

static int
parse_dtype(const char *s, mt_rng_dtype *dt)
{
    static const struct {
        const char *name;
        mt_rng_dtype dt;
    } table[] = {
        {"bool", MT_RNG_BOOL}, {"u8", MT_RNG_UINT8},    {"i8", MT_RNG_INT8},
        {"i16", MT_RNG_INT16}, {"i32", MT_RNG_INT32},   {"i64", MT_RNG_INT64},
        {"f32", MT_RNG_FLOAT32}, {"f64", MT_RNG_FLOAT64},
    };
    size_t i;
    for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        if (strcmp(s, table[i].name) == 0) {
            *dt = table[i].dt;
            return 0;
        }
    }
    return -1;
}

static void
print_randint(mt_rng_dtype dt, const void *buf, int64_t n)
{
    int64_t i;
    for (i = 0; i < n; i++) {
        switch (dt) {
        case MT_RNG_BOOL:
        case MT_RNG_UINT8:
            printf(" %u", (unsigned)((const uint8_t *)buf)[i]);
            break;
        case MT_RNG_INT8:
            printf(" %d", (int)((const int8_t *)buf)[i]);
            break;
        case MT_RNG_INT16:
            printf(" %d", (int)((const int16_t *)buf)[i]);
            break;
        case MT_RNG_INT32:
            printf(" %" PRId32, ((const int32_t *)buf)[i]);
            break;
        case MT_RNG_INT64:
            printf(" %" PRId64, ((const int64_t *)buf)[i]);
            break;
        case MT_RNG_FLOAT32:
            print_f32((const float *)buf + i, 1);
            break;
        default:
            print_f64((const double *)buf + i, 1);
            break;
        }
    }
}

static int
run_philox(const char *kind, uint64_t seed, uint64_t off, int64_t n)
{
    int64_t i;
    int bad = 0;
    uint64_t used;
    if (strcmp(kind, "rand_f32") == 0 || strcmp(kind, "randn_f32") == 0) {
        int normal = kind[4] == 'n';
        float *v = malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
        if (v == NULL) {
            return -1;
        }
        used = normal ? mt_philox_randn_float(seed, off, v, n) : mt_philox_rand_float(seed, off, v, n);
        for (i = 0; i < n; i++) {
            float e = normal ? mt_philox_normal_float(seed, off, (uint64_t)i, 0.0f, 1.0f)
                             : mt_philox_uniform_float(seed, off, (uint64_t)i);
            bad |= memcmp(&e, &v[i], 4) != 0;
        }
        printf(" %" PRIu64, used);
        print_f32(v, n);
        free(v);
    } else if (strcmp(kind, "rand_f64") == 0 || strcmp(kind, "randn_f64") == 0) {
        int normal = kind[4] == 'n';
        double *v = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
        if (v == NULL) {
            return -1;
        }
        used = normal ? mt_philox_randn_double(seed, off, v, n) : mt_philox_rand_double(seed, off, v, n);
        for (i = 0; i < n; i++) {
            double e = normal ? mt_philox_normal_double(seed, off, (uint64_t)i, 0.0, 1.0)
                              : mt_philox_uniform_double(seed, off, (uint64_t)i);
            bad |= memcmp(&e, &v[i], 8) != 0;
        }
        printf(" %" PRIu64, used);
        print_f64(v, n);
        free(v);
    } else if (strncmp(kind, "randint_", 8) == 0) {
        long long lo, hi;
        int64_t *v = malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
        if (v == NULL || sscanf(kind + 8, "%lld_%lld", &lo, &hi) != 2) {
            free(v);
            return -1;
        }
        used = mt_philox_randint_int64(seed, off, v, n, (int64_t)lo, (int64_t)hi);
        for (i = 0; i < n; i++) {
            uint64_t range = (uint64_t)hi - (uint64_t)lo;
            bad |= mt_philox_randint(seed, off, (uint64_t)i, range, (int64_t)lo) != v[i];
        }
        printf(" %" PRIu64, used);
        for (i = 0; i < n; i++) {
            printf(" %" PRId64, v[i]);
        }
        free(v);
    } else {
        return -1;
    }
    if (bad) {
        printf(" ELEMENT MISMATCH");
    }
    return 0;
}

static double
ulp_diff_float(float got, double want)
{
    float w = (float)want;
    double ulp = (double)nextafterf(fabsf(w), INFINITY) - (double)fabsf(w);
    return fabs((double)got - want) / ulp;
}

static double
ulp_diff_double(double got, double want)
{
    double ulp = nextafter(fabs(want), INFINITY) - fabs(want);
    return fabs(got - want) / ulp;
}

/* Worst-case errors of philox.h's math on a dense grid of the arguments Box-Muller uses. */
static void
philox_math(void)
{
    double e_logf = 0, e_sincosf = 0, e_log = 0, e_sincos = 0;
    int64_t i;
    const int64_t steps = 1000000;
    for (i = 1; i <= steps; i++) {
        /* (0, 1]: a geometric sweep reaching the smallest radius uniforms, plus a linear one */
        double xg = pow(2.0, -24.0 * (double)i / (double)steps);
        double xl = (double)i / (double)steps;
        float fx = (float)xg, fl = (float)xl;
        double t = 6.283185307179586 * (double)(i - 1) / (double)steps;
        float ft = (float)t;
        float s, c;
        double ds, dc, d;
        d = ulp_diff_float(mt_cephes_logf(fx), log((double)fx));
        e_logf = d > e_logf ? d : e_logf;
        d = ulp_diff_float(mt_cephes_logf(fl), log((double)fl));
        e_logf = fl != 1.0f && d > e_logf ? d : e_logf;
        mt_cephes_sincosf(ft, &s, &c);
        d = fabs((double)s - sin((double)ft));
        e_sincosf = d > e_sincosf ? d : e_sincosf;
        d = fabs((double)c - cos((double)ft));
        e_sincosf = d > e_sincosf ? d : e_sincosf;
        xg = pow(2.0, -53.0 * (double)i / (double)steps);
        d = ulp_diff_double(mt_philox_log(xg), log(xg));
        e_log = d > e_log ? d : e_log;
        if (xl != 1.0) {
            d = ulp_diff_double(mt_philox_log(xl), log(xl));
            e_log = d > e_log ? d : e_log;
        }
        mt_philox_sincos(t, &ds, &dc);
        d = fabs(ds - sin(t));
        e_sincos = d > e_sincos ? d : e_sincos;
        d = fabs(dc - cos(t));
        e_sincos = d > e_sincos ? d : e_sincos;
    }
    printf(" %.3g %.3g %.3g %.3g", e_logf, e_sincosf, e_log, e_sincos);
}

static int
hex_nibble(char ch)
{
    if (ch >= '0' && ch <= '9') {
        return ch - '0';
    }
    if (ch >= 'a' && ch <= 'f') {
        return ch - 'a' + 10;
    }
    if (ch >= 'A' && ch <= 'F') {
        return ch - 'A' + 10;
    }
    return -1;
}

static void
demo(void)
{
    mt_cpu_generator g;
    float f[3];
    mt_cpu_generator_init_default(&g);
    mt_cpu_generator_manual_seed(&g, 0);
    mt_cpu_randn_float(&g, f, 3);
    printf("manual_seed(0); randn(3) -> %.4f %.4f %.4f (torch: 1.5410 -0.2934 -2.1788)\n",
           f[0], f[1], f[2]);
    mt_cpu_generator_manual_seed(&g, 0);
    mt_cpu_rand_float(&g, f, 3);
    printf("manual_seed(0); rand(3)  -> %.4f %.4f %.4f (torch: 0.4963 0.7682 0.0885)\n",
           f[0], f[1], f[2]);
}

int
main(int argc, char **argv)
{
    mt_cpu_generator g;
    int a = 1;
    int line = 0;
    if (argc == 1) {
        demo();
        return 0;
    }
    mt_cpu_generator_init_default(&g);
    while (a < argc) {
        const char *cmd = argv[a];
#define NEED(k)                                                                  \
    do {                                                                         \
        if (a + (k) >= argc) {                                                   \
            fprintf(stderr, "rng_check: '%s' needs %d arguments\n", cmd, (k));   \
            return 2;                                                            \
        }                                                                        \
    } while (0)
        printf("%d", line++);
        if (strcmp(cmd, "seed") == 0) {
            NEED(1);
            mt_cpu_generator_manual_seed(&g, strtoull(argv[a + 1], NULL, 10));
            a += 2;
        } else if (strcmp(cmd, "default") == 0) {
            mt_cpu_capability keep = g.capability;
            mt_cpu_generator_init_default(&g);
            g.capability = keep;
            a += 1;
        } else if (strcmp(cmd, "capability") == 0) {
            NEED(1);
            g.capability = strcmp(argv[a + 1], "default") == 0 ? MT_CPU_CAPABILITY_DEFAULT
                                                              : MT_CPU_CAPABILITY_AVX2;
            a += 2;
        } else if (strcmp(cmd, "initial_seed") == 0) {
            printf(" %" PRIu64, mt_cpu_generator_initial_seed(&g));
            a += 1;
        } else if (strcmp(cmd, "rand") == 0 || strcmp(cmd, "randn") == 0
                   || strcmp(cmd, "uniform") == 0 || strcmp(cmd, "normal") == 0) {
            int is_f64;
            int64_t n;
            int nargs = cmd[0] == 'u' ? 4 : (strcmp(cmd, "normal") == 0 ? 5 : 2);
            NEED(nargs);
            is_f64 = strcmp(argv[a + 1], "f64") == 0;
            n = strtoll(argv[a + 2], NULL, 10);
            if (is_f64) {
                double *v = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
                if (v == NULL) {
                    return 3;
                }
                if (strcmp(cmd, "rand") == 0) {
                    mt_cpu_rand_double(&g, v, n);
                } else if (strcmp(cmd, "randn") == 0) {
                    mt_cpu_randn_double(&g, v, n);
                } else if (cmd[0] == 'u') {
                    mt_cpu_uniform_double(&g, v, n, atof(argv[a + 3]), atof(argv[a + 4]));
                } else {
                    mt_cpu_normal_double(&g, v, n, atof(argv[a + 3]), atof(argv[a + 4]),
                                         atoi(argv[a + 5]));
                }
                print_f64(v, n);
                free(v);
            } else {
                float *v = malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
                if (v == NULL) {
                    return 3;
                }
                if (strcmp(cmd, "rand") == 0) {
                    mt_cpu_rand_float(&g, v, n);
                } else if (strcmp(cmd, "randn") == 0) {
                    mt_cpu_randn_float(&g, v, n);
                } else if (cmd[0] == 'u') {
                    mt_cpu_uniform_float(&g, v, n, atof(argv[a + 3]), atof(argv[a + 4]));
                } else {
                    mt_cpu_normal_float(&g, v, n, atof(argv[a + 3]), atof(argv[a + 4]),
                                        atoi(argv[a + 5]));
                }
                print_f32(v, n);
                free(v);
            }
            a += 1 + nargs;
        } else if (strcmp(cmd, "randint") == 0) {
            mt_rng_dtype dt;
            int64_t n;
            void *buf;
            int rc;
            NEED(4);
            if (parse_dtype(argv[a + 1], &dt) != 0) {
                fprintf(stderr, "rng_check: bad dtype %s\n", argv[a + 1]);
                return 2;
            }
            n = strtoll(argv[a + 2], NULL, 10);
            buf = malloc(8 * (size_t)(n > 0 ? n : 1));
            if (buf == NULL) {
                return 3;
            }
            rc = mt_cpu_randint(&g, dt, buf, n, strtoll(argv[a + 3], NULL, 10),
                                strtoll(argv[a + 4], NULL, 10));
            if (rc != MT_RNG_OK) {
                printf(" error %d", rc);
            } else {
                print_randint(dt, buf, n);
            }
            free(buf);
            a += 5;
        } else if (strcmp(cmd, "random32") == 0 || strcmp(cmd, "random64") == 0) {
            int64_t n, i;
            NEED(1);
            n = strtoll(argv[a + 1], NULL, 10);
            for (i = 0; i < n; i++) {
                if (cmd[6] == '3') {
                    printf(" %" PRIu32, mt_cpu_random(&g));
                } else {
                    printf(" %" PRIu64, mt_cpu_random64(&g));
                }
            }
            a += 2;
        } else if (strcmp(cmd, "state") == 0) {
            uint8_t st[MT_CPU_RNG_STATE_BYTES];
            int i;
            mt_cpu_generator_get_state(&g, st);
            printf(" ");
            for (i = 0; i < MT_CPU_RNG_STATE_BYTES; i++) {
                printf("%02x", st[i]);
            }
            a += 1;
        } else if (strcmp(cmd, "roundtrip") == 0) {
            uint8_t st[MT_CPU_RNG_STATE_BYTES], st2[MT_CPU_RNG_STATE_BYTES];
            mt_cpu_generator h;
            int rc;
            mt_cpu_generator_get_state(&g, st);
            mt_cpu_generator_init(&h, 12345);
            rc = mt_cpu_generator_set_state(&h, st, MT_CPU_RNG_STATE_BYTES);
            mt_cpu_generator_get_state(&h, st2);
            printf(" %s", rc == MT_RNG_OK && memcmp(st, st2, sizeof(st)) == 0 ? "ok" : "FAIL");
            a += 1;
        } else if (strcmp(cmd, "setstate") == 0) {
            uint8_t st[MT_CPU_RNG_STATE_BYTES];
            const char *h;
            int64_t nb, i;
            NEED(1);
            h = argv[a + 1];
            nb = (int64_t)(strlen(h) / 2);
            for (i = 0; i < nb && i < MT_CPU_RNG_STATE_BYTES; i++) {
                int hi = hex_nibble(h[2 * i]), lo = hex_nibble(h[2 * i + 1]);
                if (hi < 0 || lo < 0) {
                    fprintf(stderr, "rng_check: bad hex state\n");
                    return 2;
                }
                st[i] = (uint8_t)(hi * 16 + lo);
            }
            printf(" %d", mt_cpu_generator_set_state(&g, st, nb));
            a += 2;
        } else if (strcmp(cmd, "philox_math") == 0) {
            philox_math();
            a += 1;
        } else if (strcmp(cmd, "setstate_bad") == 0) {
            uint8_t st[MT_CPU_RNG_STATE_BYTES];
            mt_cpu_generator_get_state(&g, st);
            printf(" %d", mt_cpu_generator_set_state(&g, st, MT_CPU_RNG_STATE_BYTES - 1));
            st[8] = 0; /* left = 0 */
            st[9] = st[10] = st[11] = 0;
            printf(" %d", mt_cpu_generator_set_state(&g, st, MT_CPU_RNG_STATE_BYTES));
            a += 1;
        } else if (strcmp(cmd, "philox_kat") == 0) {
            mt_philox4 r0 = mt_philox4x32_10(0, 0, 0, 0, 0, 0);
            mt_philox4 r1 = mt_philox4x32_10(0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
                                             0xffffffffu, 0xffffffffu);
            mt_philox4 r2 = mt_philox4x32_10(0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u,
                                             0xa4093822u, 0x299f31d0u);
            const mt_philox4 *rs[3];
            int i, k;
            rs[0] = &r0;
            rs[1] = &r1;
            rs[2] = &r2;
            for (i = 0; i < 3; i++) {
                for (k = 0; k < 4; k++) {
                    printf(" %08" PRIx32, rs[i]->w[k]);
                }
            }
            a += 1;
        } else if (strcmp(cmd, "philox") == 0) {
            NEED(4);
            if (run_philox(argv[a + 1], strtoull(argv[a + 2], NULL, 10),
                           strtoull(argv[a + 3], NULL, 10), strtoll(argv[a + 4], NULL, 10))
                != 0) {
                fprintf(stderr, "rng_check: bad philox command %s\n", argv[a + 1]);
                return 2;
            }
            a += 5;
        } else {
            fprintf(stderr, "rng_check: unknown command %s\n", cmd);
            return 2;
        }
        printf("\n");
#undef NEED
    }
    return 0;
}
