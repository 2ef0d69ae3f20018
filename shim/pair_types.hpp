// The C layouts of MPI's pair types (MPI_FLOAT_INT, ...): a value and an int index, as the
// standard defines them, so that sizeof gives the element size the application strides by.
#pragma once

namespace halyard::mpi_shim {

template <typename Value>
struct ValueIndex {
  Value value;
  int index;
};

using FloatInt = ValueIndex<float>;
using DoubleInt = ValueIndex<double>;
using LongInt = ValueIndex<long>;
using TwoInt = ValueIndex<int>;
using ShortInt = ValueIndex<short>;
using LongDoubleInt = ValueIndex<long double>;

}  // namespace halyard::mpi_shim
