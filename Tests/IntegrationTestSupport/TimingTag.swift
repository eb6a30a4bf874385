import Testing

extension Tag {
    /// A suite whose assertions include a wall-clock upper bound (a cancellation noticed within
    /// 250 ms, a silent peer detected within a few seconds, an idle timeout of 3 s).
    ///
    /// `Scripts/test.sh` runs these suites in a second pass of their own, one test at a time, after
    /// every other suite: the first pass runs a hundred suites at once on the machine's cores
    /// (100,000-deep documents, 20 MiB frames, bcrypt), and scheduling there stalls a task for
    /// seconds (4.9 s measured on a 2-core CI machine), which says nothing about the code under
    /// test. A plain `swift test` still runs them, in parallel with the rest.
    @Tag public static var timing: Self

    /// A suite that keeps the machine's cores busy for seconds without suspending (thousands of
    /// parses per test case): in the first pass it holds the few threads every task runs on, and
    /// the suites beside it miss their wall-clock bounds (seen on a 2-core CI machine: test-clock
    /// harnesses stalled past 10 s, then a run hung). `Scripts/test.sh` runs it in the second pass
    /// with the `timing` suites, one test at a time.
    @Tag public static var cpuBound: Self
}
