/*
 * cpu_other.c - Apache-2.0, part of this project's native-image toolchain.
 *
 * aarch64 / riscv64 counterparts of cpu_amd64.c, written from the
 * declarations in com.oracle.svm.core.{aarch64.AArch64,riscv64.RISCV64}LibCHelper.
 * Only compiled on those architectures; NOT built or tested on this project's
 * amd64 machines. Detection uses the kernel's AT_HWCAP/AT_HWCAP2 bits; the
 * micro-architectural "features" HotSpot derives from CPU model numbers
 * (STXR_PREFETCH, A53MAC, DMB_ATOMICS) are reported as absent.
 */
#if defined(__aarch64__) || defined(__riscv)

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#if defined(__aarch64__)
#include "aarch64cpufeatures.h"
#else
#include "riscv64cpufeatures.h"
#endif

#define HW(word, n) ((char) (((word) >> (n)) & 1ul))

void determineCPUFeatures(CPUFeatures *f) {
    unsigned long hw = getauxval(AT_HWCAP);
    memset(f, 0, sizeof(*f));
#if defined(__aarch64__)
    unsigned long hw2 = getauxval(AT_HWCAP2);
    f->fFP = HW(hw, 0);
    f->fASIMD = HW(hw, 1);
    f->fEVTSTRM = HW(hw, 2);
    f->fAES = HW(hw, 3);
    f->fPMULL = HW(hw, 4);
    f->fSHA1 = HW(hw, 5);
    f->fSHA2 = HW(hw, 6);
    f->fCRC32 = HW(hw, 7);
    f->fLSE = HW(hw, 8);
    f->fFPHP = HW(hw, 9);
    f->fASIMDHP = HW(hw, 10);
    f->fDCPOP = HW(hw, 16);
    f->fSHA3 = HW(hw, 17);
    f->fSHA512 = HW(hw, 21);
    f->fSVE = HW(hw, 22);
    f->fPACA = HW(hw, 30);
    f->fSVE2 = HW(hw2, 1);
    f->fSVEBITPERM = HW(hw2, 4);
#else
    /* RISC-V: single-letter extensions, bit ('x' - 'a'). */
    f->fI = HW(hw, 'i' - 'a');
    f->fM = HW(hw, 'm' - 'a');
    f->fA = HW(hw, 'a' - 'a');
    f->fF = HW(hw, 'f' - 'a');
    f->fD = HW(hw, 'd' - 'a');
    f->fC = HW(hw, 'c' - 'a');
    f->fV = HW(hw, 'v' - 'a');
#endif
}

int checkCPUFeatures(const char *mask) {
    enum { WORDS = (sizeof(CPUFeatures) + 7) / 8 };
    uint64_t host[WORDS];
    memset(host, 0, sizeof(host));
    determineCPUFeatures((CPUFeatures *) host);
    for (int i = 0; i < WORDS; i++) {
        uint64_t m;
        memcpy(&m, mask + 8 * i, sizeof(m));
        if ((host[i] | m) != ~(uint64_t) 0) {
            return 1;
        }
    }
    return 0;
}

int checkCPUFeaturesOrExit(const char *mask, const char *errorMessage) {
    int result = checkCPUFeatures(mask);
    if (result != 0) {
        ssize_t ignored = write(2, errorMessage, strlen(errorMessage));
        ignored = write(2, "\n", 1);
        (void) ignored;
        exit(1);
    }
    return result;
}

#endif
