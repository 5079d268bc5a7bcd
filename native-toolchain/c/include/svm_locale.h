/*
 * svm_locale.h - Apache-2.0, part of this project's native-image toolchain.
 *
 * Replaces the header of the same name from a GraalVM distribution
 * (lib/svm/clibraries/<os>-<arch>/include/). The builder compiles it through
 * com.oracle.svm.core.c.locale.LocaleDirectives to resolve the @CConstant and
 * @CStruct declarations of LocaleCHelper; liblibchelper.a (locale.c)
 * implements the two functions. Written from those Java declarations.
 */
#ifndef SVM_LOCALE_H
#define SVM_LOCALE_H

#define SVM_LOCALE_INITIALIZATION_SUCCEEDED 0
#define SVM_LOCALE_INITIALIZATION_OUT_OF_MEMORY 1

/* "display" values come from LC_MESSAGES, "format" values from LC_CTYPE.
 * Any field may be NULL when the locale does not specify it. */
typedef struct svm_locale_props {
    char *display_language;
    char *display_script;
    char *display_country;
    char *display_variant;
    char *format_language;
    char *format_script;
    char *format_country;
    char *format_variant;
} svm_locale_props_t;

/* Reads the process locale from the environment, once, during early startup. */
int svm_initialize_locale(void);

/* Returns the values determined by svm_initialize_locale. */
svm_locale_props_t *svm_get_locale(void);

#endif
