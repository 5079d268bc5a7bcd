/*
 * aarch64cpufeatures.h - Apache-2.0, part of this project's native-image toolchain.
 *
 * Replaces the header of the same name that a GraalVM distribution ships in
 * lib/svm/clibraries/<os>-<arch>/include/. The builder compiles it (via
 * AArch64LibCHelperDirectives) to learn the layout of the C struct behind
 * the @CStruct interface CPUFeatures in com.oracle.svm.core.aarch64.*LibCHelper.
 * Written from those Java declarations: one byte per @CField, named exactly
 * like the Java accessor ("f" + JVMCI CPUFeature name). A field is 1 when the
 * running CPU (and OS) supports the feature, 0 otherwise.
 */
#ifndef SVM_AARCH64_CPUFEATURES_H
#define SVM_AARCH64_CPUFEATURES_H

typedef struct CPUFeatures {
  char fFP;
  char fASIMD;
  char fEVTSTRM;
  char fAES;
  char fPMULL;
  char fSHA1;
  char fSHA2;
  char fCRC32;
  char fLSE;
  char fDCPOP;
  char fSHA3;
  char fSHA512;
  char fSVE;
  char fSVE2;
  char fSTXR_PREFETCH;
  char fA53MAC;
  char fDMB_ATOMICS;
  char fPACA;
  char fSVEBITPERM;
  char fFPHP;
  char fASIMDHP;
} CPUFeatures;

/* Implemented in liblibchelper.a (cpu_aarch64.c). */
void determineCPUFeatures(CPUFeatures *features);
int checkCPUFeatures(const char *buildtimeCPUFeatureMask);
int checkCPUFeaturesOrExit(const char *buildtimeCPUFeatureMask, const char *errorMessage);

#endif
