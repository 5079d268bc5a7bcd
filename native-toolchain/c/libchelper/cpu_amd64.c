/*
 * cpu_amd64.c - Apache-2.0, part of this project's native-image toolchain.
 *
 * Replaces the CPU feature detection of SubstrateVM's liblibchelper.a, which no
 * Maven artifact ships. Written from the declarations in
 * com.oracle.svm.core.amd64.AMD64LibCHelper (determineCPUFeatures,
 * checkCPUFeatures, checkCPUFeaturesOrExit) and the contract documented in
 * com.oracle.svm.core.CPUFeatureAccessImpl / hosted.CPUFeatureAccessFeatureBase:
 *
 *  - determineCPUFeatures fills one byte per feature with 0 or 1;
 *  - the build-time mask is a CPUFeatures struct, padded to a multiple of
 *    8 bytes, stored bitwise negated: a required feature is 0xFE, everything
 *    else (including padding) 0xFF. The host supports the image iff
 *    (host_struct | mask) is all ones. checkCPUFeatures returns 0 in that case.
 *
 * Detection uses CPUID plus XGETBV, so that AVX/AVX-512/APX state is only
 * reported when the OS saves the corresponding registers (as HotSpot does).
 */
#if defined(__x86_64__)

#include <cpuid.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "amd64cpufeatures.h"

static void cpuid(uint32_t leaf, uint32_t subleaf, uint32_t r[4]) {
    __cpuid_count(leaf, subleaf, r[0], r[1], r[2], r[3]);
}

static uint64_t xgetbv0(void) {
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t) hi << 32) | lo;
}

#define BIT(reg, n) ((char) (((reg) >> (n)) & 1u))

void determineCPUFeatures(CPUFeatures *f) {
    uint32_t r[4];
    uint32_t ecx1 = 0, edx1 = 0;
    uint32_t ebx7 = 0, ecx7 = 0, edx7 = 0, eax71 = 0, edx71 = 0;
    uint32_t ecxE1 = 0, edxE1 = 0, edxE7 = 0, avx10_version = 0;

    memset(f, 0, sizeof(*f));
    cpuid(0, 0, r);
    uint32_t max_leaf = r[0];
    cpuid(0x80000000u, 0, r);
    uint32_t max_ext = r[0];

    if (max_leaf >= 1) {
        cpuid(1, 0, r);
        ecx1 = r[2];
        edx1 = r[3];
    }
    if (max_leaf >= 7) {
        cpuid(7, 0, r);
        uint32_t max_sub7 = r[0];
        ebx7 = r[1];
        ecx7 = r[2];
        edx7 = r[3];
        if (max_sub7 >= 1) {
            cpuid(7, 1, r);
            eax71 = r[0];
            edx71 = r[3];
        }
    }
    if (max_leaf >= 0x24 && BIT(edx71, 19)) {
        cpuid(0x24, 0, r);
        avx10_version = r[1] & 0xff;
    }
    if (max_ext >= 0x80000001u) {
        cpuid(0x80000001u, 0, r);
        ecxE1 = r[2];
        edxE1 = r[3];
    }
    if (max_ext >= 0x80000007u) {
        cpuid(0x80000007u, 0, r);
        edxE7 = r[3];
    }

    /* OS support for extended register state (XCR0). */
    uint64_t xcr0 = BIT(ecx1, 27) ? xgetbv0() : 0; /* OSXSAVE */
    int os_avx = (xcr0 & 0x6) == 0x6;                   /* XMM | YMM */
    int os_avx512 = os_avx && (xcr0 & 0xe0) == 0xe0;    /* opmask | ZMM_Hi256 | Hi16_ZMM */
    int os_apx = (xcr0 & (1u << 19)) != 0;              /* APX extended GPRs */

    /* CPUID.1:EDX */
    f->fTSC = BIT(edx1, 4);
    f->fCX8 = BIT(edx1, 8);
    f->fCMOV = BIT(edx1, 15);
    f->fFLUSH = BIT(edx1, 19);
    f->fMMX = BIT(edx1, 23);
    f->fFXSR = BIT(edx1, 24);
    f->fSSE = BIT(edx1, 25);
    f->fSSE2 = BIT(edx1, 26);
    f->fHT = BIT(edx1, 28);

    /* CPUID.1:ECX */
    f->fSSE3 = BIT(ecx1, 0);
    f->fCLMUL = BIT(ecx1, 1);
    f->fSSSE3 = BIT(ecx1, 9);
    f->fSSE4_1 = BIT(ecx1, 19);
    f->fSSE4_2 = BIT(ecx1, 20);
    f->fPOPCNT = BIT(ecx1, 23);
    f->fAES = BIT(ecx1, 25);
    f->fHV = BIT(ecx1, 31);
    if (os_avx) {
        f->fFMA = BIT(ecx1, 12);
        f->fAVX = BIT(ecx1, 28);
        f->fF16C = BIT(ecx1, 29);
        f->fVZEROUPPER = f->fAVX;
    }

    /* CPUID.(7,0):EBX/ECX/EDX */
    f->fBMI1 = BIT(ebx7, 3);
    f->fBMI2 = BIT(ebx7, 8);
    f->fERMS = BIT(ebx7, 9);
    f->fRTM = BIT(ebx7, 11);
    f->fADX = BIT(ebx7, 19);
    f->fFLUSHOPT = BIT(ebx7, 23);
    f->fCLWB = BIT(ebx7, 24);
    f->fSHA = BIT(ebx7, 29);
    f->fPKU = BIT(ecx7, 3);
    f->fOSPKE = BIT(ecx7, 4);
    f->fCET_SS = BIT(ecx7, 7);
    f->fGFNI = BIT(ecx7, 8);
    f->fRDPID = BIT(ecx7, 22);
    f->fFSRM = BIT(edx7, 4);
    f->fSERIALIZE = BIT(edx7, 14);
    f->fCET_IBT = BIT(edx7, 20);
    if (os_avx) {
        f->fAVX2 = BIT(ebx7, 5);
        f->fSHA512 = BIT(eax71, 0);
        f->fAVX_IFMA = BIT(eax71, 23);
    }
    if (os_avx512 && BIT(ebx7, 16)) {
        f->fAVX512F = 1;
        f->fAVX512DQ = BIT(ebx7, 17);
        f->fAVX512_IFMA = BIT(ebx7, 21);
        f->fAVX512PF = BIT(ebx7, 26);
        f->fAVX512ER = BIT(ebx7, 27);
        f->fAVX512CD = BIT(ebx7, 28);
        f->fAVX512BW = BIT(ebx7, 30);
        f->fAVX512VL = BIT(ebx7, 31);
        f->fAVX512_VBMI = BIT(ecx7, 1);
        f->fAVX512_VBMI2 = BIT(ecx7, 6);
        f->fAVX512_VAES = BIT(ecx7, 9);
        f->fAVX512_VPCLMULQDQ = BIT(ecx7, 10);
        f->fAVX512_VNNI = BIT(ecx7, 11);
        f->fAVX512_BITALG = BIT(ecx7, 12);
        f->fAVX512_VPOPCNTDQ = BIT(ecx7, 14);
        f->fAVX512_FP16 = BIT(edx7, 23);
    }
    if (os_avx512) {
        f->fAVX10_1 = avx10_version >= 1;
        f->fAVX10_2 = avx10_version >= 2;
    }
    if (os_apx) {
        f->fAPX_F = BIT(edx71, 21);
    }

    /* Extended leaves. */
    f->fLZCNT = BIT(ecxE1, 5);
    f->fSSE4A = BIT(ecxE1, 6);
    f->fAMD_3DNOW_PREFETCH = BIT(ecxE1, 8) | BIT(edxE1, 31);
    f->fRDTSCP = BIT(edxE1, 27);
    f->fTSCINV_BIT = BIT(edxE7, 8);
    f->fTSCINV = f->fTSCINV_BIT;
}

int checkCPUFeatures(const char *buildtimeCPUFeatureMask) {
    enum { WORDS = (sizeof(CPUFeatures) + 7) / 8 };
    uint64_t host[WORDS];
    memset(host, 0, sizeof(host));
    determineCPUFeatures((CPUFeatures *) host);
    for (int i = 0; i < WORDS; i++) {
        uint64_t mask;
        memcpy(&mask, buildtimeCPUFeatureMask + 8 * i, sizeof(mask));
        if ((host[i] | mask) != ~(uint64_t) 0) {
            return 1;
        }
    }
    return 0;
}

int checkCPUFeaturesOrExit(const char *buildtimeCPUFeatureMask, const char *errorMessage) {
    int result = checkCPUFeatures(buildtimeCPUFeatureMask);
    if (result != 0) {
        ssize_t ignored = write(2, errorMessage, strlen(errorMessage));
        ignored = write(2, "\n", 1);
        (void) ignored;
        exit(1);
    }
    return result;
}

#endif /* __x86_64__ */
