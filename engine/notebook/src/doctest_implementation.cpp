// The one translation unit with doctest's implementation (3.5 s of compile time), shared by
// every lesson and every test program instead of compiled into each.

#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
