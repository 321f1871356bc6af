"""What every method's workflow shares: events, role-model calls with usage, compiling, running.

A method's ``workflows/<method>/`` holds its state, context, prompts and one
function per paper role; the plumbing around those lives here, once:

* :mod:`~graphreason.workflows.kit.events` - ``emit``: a custom stream event (a no-op outside a run);
* :mod:`~graphreason.workflows.kit.llm` - ``ask_role``: one role's model called on a prompt, with usage;
* :mod:`~graphreason.workflows.kit.native` - native tool calling: a role's model bound to registry tools
  (``ask_with_tools``), its calls run through the tool objects, models without tools refused;
* :mod:`~graphreason.workflows.kit.compile` - ``compile_workflow``: compile with a recursion limit;
* :mod:`~graphreason.workflows.kit.run` - ``run_workflow`` / ``stream_workflow``: one run per call,
  events passed on as they happen.
"""
