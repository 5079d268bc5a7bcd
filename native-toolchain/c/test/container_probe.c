/*
 * container_probe.c - Apache-2.0, part of this project's native-image toolchain.
 *
 * Unit test driver for libsvm_container (container/svm_container.c): calls
 * every function com.oracle.svm.core.container.ContainerLibrary declares, the
 * way the image does, and prints the results as key=value lines.
 * Built with -DSVM_CONTAINER_TESTING (see the Makefile), which also prints the
 * discovered controllers.
 */
#include <stdio.h>

int svm_container_initialize(int version);
unsigned long svm_container_physical_memory(void);
long long svm_container_memory_limit_in_bytes(void);
long long svm_container_memory_and_swap_limit_in_bytes(void);
long long svm_container_memory_soft_limit_in_bytes(void);
long long svm_container_memory_usage_in_bytes(void);
long long svm_container_memory_max_usage_in_bytes(void);
long long svm_container_rss_usage_in_bytes(void);
long long svm_container_cache_usage_in_bytes(void);
int svm_container_active_processor_count(void);
#ifdef SVM_CONTAINER_TESTING
void svm_container_test_dump(FILE *out);
#endif

int main(void) {
    int rc = svm_container_initialize(240100);
    printf("initialize=%d (%s)\n", rc, rc == 1 ? "containerized" : rc == 0 ? "not containerized" : "error");
    if (svm_container_initialize(240099) != 3 || svm_container_initialize(240101) != 2) {
        printf("FAIL: version check\n");
        return 1;
    }
#ifdef SVM_CONTAINER_TESTING
    svm_container_test_dump(stdout);
#endif
    printf("active_processor_count=%d\n", svm_container_active_processor_count());
    printf("physical_memory=%lu\n", svm_container_physical_memory());
    printf("memory_limit_in_bytes=%lld\n", svm_container_memory_limit_in_bytes());
    printf("memory_and_swap_limit_in_bytes=%lld\n", svm_container_memory_and_swap_limit_in_bytes());
    printf("memory_soft_limit_in_bytes=%lld\n", svm_container_memory_soft_limit_in_bytes());
    printf("memory_usage_in_bytes=%lld\n", svm_container_memory_usage_in_bytes());
    printf("memory_max_usage_in_bytes=%lld\n", svm_container_memory_max_usage_in_bytes());
    printf("rss_usage_in_bytes=%lld\n", svm_container_rss_usage_in_bytes());
    printf("cache_usage_in_bytes=%lld\n", svm_container_cache_usage_in_bytes());
    return 0;
}
