"""The C backend: a memory plan and a stand-alone C module for a Graph."""
