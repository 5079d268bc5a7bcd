/*
 * locale.c - Apache-2.0, part of this project's native-image toolchain.
 *
 * Replaces the locale part of SubstrateVM's liblibchelper.a. Written from
 * com.oracle.svm.core.c.locale.LocaleCHelper / LocaleSupport: svm_initialize_locale
 * is called once at startup and returns SVM_LOCALE_INITIALIZATION_SUCCEEDED or
 * ..._OUT_OF_MEMORY; svm_get_locale then hands Java the parsed display (LC_MESSAGES)
 * and format (LC_CTYPE) language/script/country/variant, which become the
 * user.language/user.country/... defaults the way the JDK derives them:
 *   "C"/"POSIX"/unset -> en_US; "ll_CC.encoding@modifier" is split into parts;
 *   obsolete codes are normalised; an "@modifier" naming a script (latin,
 *   cyrillic, ...) becomes the script, "@nynorsk" the variant, others are dropped.
 * The environment's locale is only read: the process locale is restored afterwards.
 */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "svm_locale.h"

static svm_locale_props_t props;

/* pairs: from, to */
static const char *const language_map[] = {
    "C", "en", "POSIX", "en", "cz", "cs", "sh", "sr", "su", "fi", "hs", "en", "ua", "en",
    "iw", "he", "in", "id", "ji", "yi", NULL};
static const char *const country_map[] = {"YU", "CS", "RN", "US", NULL};
static const char *const script_map[] = {
    "latin", "Latn", "iqtelif", "Latn", "cyrillic", "Cyrl", "devanagari", "Deva",
    "Arab", "Arab", "Cyrl", "Cyrl", "Deva", "Deva", "Ethi", "Ethi", "Hans", "Hans",
    "Hant", "Hant", "Latn", "Latn", "Sund", "Sund", "Syrc", "Syrc", "Tfng", "Tfng", NULL};
static const char *const variant_map[] = {"nynorsk", "NY", NULL};
/* A bare language implies its main country (e.g. LANG=de means de_DE). */
static const char *const bare_language_country[] = {
    "ar", "EG", "cs", "CZ", "da", "DK", "de", "DE", "el", "GR", "en", "US", "es", "ES",
    "fi", "FI", "fr", "FR", "he", "IL", "hu", "HU", "it", "IT", "ja", "JP", "ko", "KR",
    "nl", "NL", "no", "NO", "pl", "PL", "pt", "PT", "ru", "RU", "sv", "SE", "tr", "TR",
    "uk", "UA", "zh", "CN", NULL};

static const char *lookup(const char *const *map, const char *key) {
    for (int i = 0; map[i] != NULL; i += 2) {
        if (strcmp(map[i], key) == 0) {
            return map[i + 1];
        }
    }
    return NULL;
}

static int dup_into(char **dst, const char *src) {
    if (src == NULL || *src == '\0') {
        *dst = NULL;
        return 1;
    }
    *dst = strdup(src);
    return *dst != NULL;
}

/* Parses the current setting of category `cat`. Returns 0 on out of memory. */
static int parse_category(int cat, char **language, char **script, char **country, char **variant) {
    const char *lc = setlocale(cat, NULL);
    if (lc == NULL || strcmp(lc, "C") == 0 || strcmp(lc, "POSIX") == 0) {
        lc = "en_US";
    }
    char *buf = strdup(lc);
    if (buf == NULL) {
        return 0;
    }
    char *modifier = strchr(buf, '@');
    if (modifier != NULL) {
        *modifier++ = '\0';
    }
    char *encoding = strchr(buf, '.');
    if (encoding != NULL) {
        *encoding = '\0';
    }
    char *ctry = strchr(buf, '_');
    if (ctry != NULL) {
        *ctry++ = '\0';
    }
    const char *lang = buf;
    if (ctry == NULL && encoding == NULL) {
        ctry = (char *) lookup(bare_language_country, lang);
    }
    const char *mapped;
    if ((mapped = lookup(language_map, lang)) != NULL) {
        lang = mapped;
    }
    if (ctry != NULL && (mapped = lookup(country_map, ctry)) != NULL) {
        ctry = (char *) mapped;
    }
    const char *scr = modifier != NULL ? lookup(script_map, modifier) : NULL;
    const char *var = modifier != NULL ? lookup(variant_map, modifier) : NULL;

    int ok = dup_into(language, lang) & dup_into(script, scr) & dup_into(country, ctry) & dup_into(variant, var);
    free(buf);
    return ok;
}

int svm_initialize_locale(void) {
    char *saved = NULL;
    const char *current = setlocale(LC_ALL, NULL);
    if (current != NULL && (saved = strdup(current)) == NULL) {
        return SVM_LOCALE_INITIALIZATION_OUT_OF_MEMORY;
    }
    setlocale(LC_ALL, ""); /* take LANG / LC_* from the environment */
    int ok = parse_category(LC_MESSAGES, &props.display_language, &props.display_script,
                            &props.display_country, &props.display_variant) &&
             parse_category(LC_CTYPE, &props.format_language, &props.format_script,
                            &props.format_country, &props.format_variant);
    if (saved != NULL) {
        setlocale(LC_ALL, saved);
        free(saved);
    }
    return ok ? SVM_LOCALE_INITIALIZATION_SUCCEEDED : SVM_LOCALE_INITIALIZATION_OUT_OF_MEMORY;
}

svm_locale_props_t *svm_get_locale(void) {
    return &props;
}
