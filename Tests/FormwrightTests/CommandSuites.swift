import Testing

/// The suites that run the `formwright` binary, one test at a time.
///
/// Their tests wait for child processes on the thread the test runs on, which Swift Testing takes from
/// the cooperative pool: two threads on a two-core machine. Run side by side, two of them could hold
/// both, and the server tests' async handlers, which run as tasks on that pool, would time out waiting
/// for a thread. One at a time, they leave a thread free.
@Suite(.serialized) enum CommandSuites {}
