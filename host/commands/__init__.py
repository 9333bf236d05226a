"""The subcommands of `turnlight`, one module each."""
