package org.examsuite.tools.bench;

/**
 * One benchmark of bench/NAME (its README says what it measures): starts what it measures, drives
 * it and writes its Markdown table to {@link BenchRun#out()}. A failure is a {@link
 * org.examsuite.tools.host.Fail}; {@link BenchRun#close()} undoes what it started either way.
 */
interface Benchmark {
    void run(BenchRun run) throws Exception;
}
