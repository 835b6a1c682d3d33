"""Vectorised numpy kernels the metric families share: classification counts, correlations, NER span counts,
retrieval ranks, text matching, BLEU/chrF and ROUGE statistics, and the seeded percentile bootstrap.
Part of layer 6 (metrics): imports only numpy, scipy and layer 1 (foundations), never the metric families."""
