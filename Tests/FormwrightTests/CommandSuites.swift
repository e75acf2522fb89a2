import Testing

/// The suites that run the `formwright` binary, one test at a time.
///
/// Their tests wait for child processes, which takes seconds. Each waits on a thread of its own
/// (`offPool`): a test runs on Swift's cooperative pool, two threads on a two-core machine, and the
/// server tests' async handlers run as tasks on that pool too; a test blocking one of its threads left
/// them waiting long enough to time out. One at a time, they also keep the child processes from
/// crowding the two cores the servers under test need.
@Suite(.serialized) enum CommandSuites {}
