"""Pictures one kata's spec draws into its report (int8-quant's codes, k-means' scatter, NMS's boxes, a sampler's
frequencies, top-p's cut): text, drawn by the spec's compare hook while it judges, from the data alone."""
