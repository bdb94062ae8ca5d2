"""Analysis shared by both halves of memory: what a message does and what a question asks.

The write path (proposer, verification, the LLM gate) and the read path (the offline and LLM
readers) share these definitions, so "a proposal is not a decision" means the same thing in
every module and in every prompt.
"""
