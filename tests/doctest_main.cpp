// main() of the test programs; doctest's implementation is compiled once, in the engine's
// tutor::doctest_implementation.

#include <doctest/doctest.h>

int main(int argc, char** argv) { return doctest::Context(argc, argv).run(); }
