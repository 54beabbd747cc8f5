"""The app's server side: what a Voila server of CrowsNest Rook adds to Voila itself (issue 31 item 6).

- `rookserver.kernels.RookKernelManager`: Voila's kernel manager (``VoilaConfiguration.multi_kernel_manager_class``
  in voila.json) with caps on the pages' kernels (in all, per browser, per network address) and a kernel whose page
  has gone shut down after a grace period, whatever it is still computing. It works with and without Voila's kernel
  pool (``preheat_kernel``).
- `rookserver.caps`: who a client is, the count of each client's kernels, the total derived from memory.
- `rookserver.full_page`: the page a learner sees when a cap is reached, in the learner's language.

No widgets here and nothing the kernels import: this runs in the Voila server process.
"""
