/*
 * amd64cpufeatures.h - Apache-2.0, part of this project's native-image toolchain.
 *
 * Replaces the header of the same name that a GraalVM distribution ships in
 * lib/svm/clibraries/<os>-<arch>/include/. The builder compiles it (via
 * AMD64LibCHelperDirectives) to learn the layout of the C struct behind
 * the @CStruct interface CPUFeatures in com.oracle.svm.core.amd64.*LibCHelper.
 * Written from those Java declarations: one byte per @CField, named exactly
 * like the Java accessor ("f" + JVMCI CPUFeature name). A field is 1 when the
 * running CPU (and OS) supports the feature, 0 otherwise.
 */
#ifndef SVM_AMD64_CPUFEATURES_H
#define SVM_AMD64_CPUFEATURES_H

typedef struct CPUFeatures {
  char fCX8;
  char fCMOV;
  char fFXSR;
  char fHT;
  char fMMX;
  char fAMD_3DNOW_PREFETCH;
  char fSSE;
  char fSSE2;
  char fSSE3;
  char fSSSE3;
  char fSSE4A;
  char fSSE4_1;
  char fSSE4_2;
  char fPOPCNT;
  char fLZCNT;
  char fTSC;
  char fTSCINV;
  char fTSCINV_BIT;
  char fAVX;
  char fAVX2;
  char fAES;
  char fERMS;
  char fCLMUL;
  char fBMI1;
  char fBMI2;
  char fRTM;
  char fADX;
  char fAVX512F;
  char fAVX512DQ;
  char fAVX512PF;
  char fAVX512ER;
  char fAVX512CD;
  char fAVX512BW;
  char fAVX512VL;
  char fSHA;
  char fFMA;
  char fVZEROUPPER;
  char fAVX512_VPOPCNTDQ;
  char fAVX512_VPCLMULQDQ;
  char fAVX512_VAES;
  char fAVX512_VNNI;
  char fFLUSH;
  char fFLUSHOPT;
  char fCLWB;
  char fAVX512_VBMI2;
  char fAVX512_VBMI;
  char fHV;
  char fSERIALIZE;
  char fRDTSCP;
  char fRDPID;
  char fFSRM;
  char fGFNI;
  char fAVX512_BITALG;
  char fPKU;
  char fOSPKE;
  char fCET_IBT;
  char fCET_SS;
  char fF16C;
  char fAVX512_IFMA;
  char fAVX_IFMA;
  char fAPX_F;
  char fSHA512;
  char fAVX512_FP16;
  char fAVX10_1;
  char fAVX10_2;
} CPUFeatures;

/* Implemented in liblibchelper.a (cpu_amd64.c). */
void determineCPUFeatures(CPUFeatures *features);
int checkCPUFeatures(const char *buildtimeCPUFeatureMask);
int checkCPUFeaturesOrExit(const char *buildtimeCPUFeatureMask, const char *errorMessage);

#endif
