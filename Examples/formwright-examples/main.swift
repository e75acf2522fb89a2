import FormwrightCommands

// The command line with the examples' Swift: what `make serve` runs on `Forms/`.
FormwrightCommandLine.run { formsFolder in ExampleHooks.make(formsFolder: formsFolder) }
