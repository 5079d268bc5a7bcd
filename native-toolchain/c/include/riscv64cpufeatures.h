/*
 * riscv64cpufeatures.h - Apache-2.0, part of this project's native-image toolchain.
 *
 * Replaces the header of the same name that a GraalVM distribution ships in
 * lib/svm/clibraries/<os>-<arch>/include/. The builder compiles it (via
 * RISCV64LibCHelperDirectives) to learn the layout of the C struct behind
 * the @CStruct interface CPUFeatures in com.oracle.svm.core.riscv64.*LibCHelper.
 * Written from those Java declarations: one byte per @CField, named exactly
 * like the Java accessor ("f" + JVMCI CPUFeature name). A field is 1 when the
 * running CPU (and OS) supports the feature, 0 otherwise.
 */
#ifndef SVM_RISCV64_CPUFEATURES_H
#define SVM_RISCV64_CPUFEATURES_H

typedef struct CPUFeatures {
  char fI;
  char fM;
  char fA;
  char fF;
  char fD;
  char fC;
  char fV;
} CPUFeatures;

/* Implemented in liblibchelper.a (cpu_riscv64.c). */
void determineCPUFeatures(CPUFeatures *features);
int checkCPUFeatures(const char *buildtimeCPUFeatureMask);
int checkCPUFeaturesOrExit(const char *buildtimeCPUFeatureMask, const char *errorMessage);

#endif
