import FormServer
import FormwrightCommands

// The product: the command line with no Swift hooks of its own. Forms that need Swift (a custom
// validator, stored records, a handler) are served by a binary that registers them
// (`FormwrightCommandLine.run(hooks:)`), as `formwright-examples` does for the examples.
FormwrightCommandLine.run { _ in FormHooks() }
