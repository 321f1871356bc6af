"""Each method's command-line hooks, one module per method, named after it (``Method.cli_module``).

:func:`graphreason.cli.main.build_parser` walks
:data:`graphreason.workflows.methods.METHODS` and, for each method, imports the
module ``graphreason.cli.methods.NAME`` (or the one its ``cli`` field names), when
it exists, and calls the hooks that module defines:

``add_run_parser(run_methods)``
    adds ``graphreason run NAME`` to the ``run`` sub-parsers (a method without
    this hook, or without such a module, gets the generic one of
    :mod:`graphreason.cli.methods.generic`, built from its :class:`Method`);
``add_eval_parser(eval_methods)``
    adds ``graphreason eval NAME``;
``add_train_parser(train_targets)``
    adds its targets to ``graphreason train`` (whose sub-parsers store the
    chosen target in ``args.target``).

Each parser sets its own ``handler`` (``args -> exit code``); the run settings
come from the method's context through
:func:`graphreason.cli.context_options.add_run_settings`.
"""
