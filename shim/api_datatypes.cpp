// MPI datatype calls: the constructors of derived types, commit/free/dup, bounds, names,
// decoding (envelope and contents), addresses, packing and element counts. Every constructor
// lays copies of existing types out through TypeBuilder (datatype_object.hpp) and records its own
// arguments, which MPI_Type_get_contents hands back.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "shim/argument_checks.hpp"
#include "shim/attributes.hpp"
#include "shim/call_guard.hpp"
#include "shim/datatype_table.hpp"

using namespace halyard::mpi_shim;

namespace {

template <typename Count>
void check_array(const void* array, Count count, const char* name) {
  if (count > 0 && array == nullptr) fail(MPI_ERR_ARG, std::string(name) + " is NULL");
}

std::size_t checked_blocklength(int blocklength, const char* name = "blocklength") {
  if (blocklength < 0) {
    fail(MPI_ERR_ARG, "invalid " + std::string(name) + " " + std::to_string(blocklength));
  }
  return static_cast<std::size_t>(blocklength);
}

RecipeType recipe_type(MPI_Datatype handle, const TypeObject& type) {
  return {handle, type.shared_from_this()};
}

TypeObject& mutable_type(MPI_Datatype handle) {
  checked_any_datatype(handle);
  return *datatype_table().find(handle);
}

// The vector and indexed constructors: `count` blocks of `oldtype`, block i of `length(i)` items
// at displacement `displacement(i)`, counted in old's extents (`in_extents`) or in bytes, in the
// order given (the type map's order). `recipe` gets the old type added.
template <typename Length, typename Displacement>
std::shared_ptr<TypeObject> placed_blocks(int count, MPI_Datatype oldtype, Length length,
                                          Displacement displacement, bool in_extents,
                                          TypeRecipe recipe) {
  std::size_t n = checked_count(count);
  const TypeObject& old = checked_any_datatype(oldtype, "oldtype");
  MPI_Aint unit = in_extents ? old.extent : 1;
  TypeBuilder builder;
  for (std::size_t i = 0; i < n; ++i) builder.add(old, displacement(i) * unit, length(i));
  recipe.types = {recipe_type(oldtype, old)};
  return builder.finish(std::move(recipe));
}

// Runs a constructor body that returns the new object and stores its handle in `newtype`.
template <typename Build>
int construct(const char* call, MPI_Datatype* newtype, Build&& build) {
  return guarded(call, MPI_COMM_WORLD, [&] {
    check_out(newtype, "newtype");
    *newtype = datatype_table().add(build());
  });
}

// The arguments a constructor records: `head`, then `count` values of `array`.
std::vector<int> ints_of(std::initializer_list<int> head, const int* array, int count) {
  std::vector<int> ints(head);
  if (count > 0) ints.insert(ints.end(), array, array + count);
  return ints;
}

std::vector<MPI_Aint> aints_of(const MPI_Aint* array, int count) {
  return count > 0 ? std::vector<MPI_Aint>(array, array + count) : std::vector<MPI_Aint>();
}

// Block i's length from an array of them, each checked.
auto block_length(const int* array_of_blocklengths) {
  return [array_of_blocklengths](std::size_t i) {
    return checked_blocklength(array_of_blocklengths[i], "array_of_blocklengths");
  };
}

// The subarray's (C-order) dimensions: sizes, subsizes, starts, checked.
struct Dims {
  std::vector<std::size_t> sizes, subsizes, starts;
};

Dims checked_dims(int ndims, const int sizes[], const int subsizes[], const int starts[],
                  int order) {
  if (ndims <= 0) fail(MPI_ERR_ARG, "invalid ndims " + std::to_string(ndims));
  check_array(sizes, 1, "array_of_sizes");
  check_array(subsizes, 1, "array_of_subsizes");
  check_array(starts, 1, "array_of_starts");
  if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN) {
    fail(MPI_ERR_ARG, "invalid order " + std::to_string(order));
  }
  Dims dims;
  for (int d = 0; d < ndims; ++d) {
    // C order: the last dimension varies fastest; Fortran order is the same read backwards.
    int i = order == MPI_ORDER_C ? d : ndims - 1 - d;
    std::string at = "[" + std::to_string(i) + "]";
    if (sizes[i] <= 0)
      fail(MPI_ERR_ARG, "invalid array_of_sizes" + at + " " + std::to_string(sizes[i]));
    if (subsizes[i] <= 0 || subsizes[i] > sizes[i]) {
      fail(MPI_ERR_ARG, "invalid array_of_subsizes" + at + " " + std::to_string(subsizes[i]) +
                            " (size " + std::to_string(sizes[i]) + ")");
    }
    if (starts[i] < 0 || starts[i] > sizes[i] - subsizes[i]) {
      fail(MPI_ERR_ARG, "invalid array_of_starts" + at + " " + std::to_string(starts[i]) +
                            " (size " + std::to_string(sizes[i]) + ", subsize " +
                            std::to_string(subsizes[i]) + ")");
    }
    dims.sizes.push_back(static_cast<std::size_t>(sizes[i]));
    dims.subsizes.push_back(static_cast<std::size_t>(subsizes[i]));
    dims.starts.push_back(static_cast<std::size_t>(starts[i]));
  }
  return dims;
}

// Every row of the innermost dimension, outer indices in order.
std::shared_ptr<TypeObject> subarray_of(const Dims& dims, const TypeObject& old,
                                        TypeRecipe recipe) {
  std::size_t ndims = dims.sizes.size();
  std::vector<MPI_Aint> stride(ndims);
  MPI_Aint step = old.extent;
  for (std::size_t d = ndims; d-- > 0;) {
    stride[d] = step;
    step *= static_cast<MPI_Aint>(dims.sizes[d]);
  }
  MPI_Aint whole = step;
  TypeBuilder builder;
  std::vector<std::size_t> index(ndims, 0);  // within the subarray; the last one is a row
  while (true) {
    MPI_Aint offset = 0;
    for (std::size_t d = 0; d < ndims; ++d) {
      offset += static_cast<MPI_Aint>(dims.starts[d] + index[d]) * stride[d];
    }
    builder.add(old, offset, dims.subsizes[ndims - 1]);
    std::size_t d = ndims - 1;
    while (d-- > 0 && ++index[d] == dims.subsizes[d]) index[d] = 0;
    if (d == static_cast<std::size_t>(-1)) break;
  }
  // MPI gives a subarray the bounds of the whole array.
  return resized(*builder.finish({}), 0, whole, std::move(recipe));
}

void copy_name(const std::string& name, char* out, int* length) {
  std::size_t n = std::min(name.size(), static_cast<std::size_t>(MPI_MAX_OBJECT_NAME - 1));
  std::memcpy(out, name.data(), n);
  out[n] = '\0';
  *length = static_cast<int>(n);
}

// A datatype argument of the recipe as get_contents returns it: predefined types by their
// handle, derived ones as a new handle the caller frees (MPI's rule).
MPI_Datatype returned_type(const RecipeType& type) {
  if (type.type->predefined) return type.handle;
  return datatype_table().add(std::make_shared<TypeObject>(*type.type));
}

// What MPI_Pack and MPI_Unpack share: `count` items of `datatype` as `bytes` packed bytes at
// `at` in a packed buffer of `size` bytes (MPI_ERR_TRUNCATE when they do not fit).
struct PackedSpan {
  const TypeObject* type;
  std::size_t count;
  std::size_t at;
  std::size_t bytes;
};

PackedSpan checked_span(MPI_Comm comm, int count, const char* count_name, MPI_Datatype datatype,
                        const int* position, int size, const char* size_name) {
  shim_state().comm(comm);
  std::size_t n = checked_count(count, count_name);
  const TypeObject& type = checked_datatype(datatype);
  check_out(position, "position");
  if (size < 0) fail(MPI_ERR_ARG, "invalid " + std::string(size_name) + " " + std::to_string(size));
  if (*position < 0 || *position > size) {
    fail(MPI_ERR_ARG, "invalid position " + std::to_string(*position) + " (" + size_name + " " +
                          std::to_string(size) + ")");
  }
  auto at = static_cast<std::size_t>(*position);
  std::size_t bytes = bytes_of(n, type);
  if (at + bytes > static_cast<std::size_t>(size)) {
    fail(MPI_ERR_TRUNCATE, std::to_string(bytes) + " bytes from position " + std::to_string(at) +
                               " do not fit " + size_name + " " + std::to_string(size));
  }
  return {&type, n, at, bytes};
}

// MPI_Type_get_extent / get_true_extent and their MPI_Count forms: two fields of the type.
template <typename Value>
int get_bounds(const char* call, MPI_Datatype datatype, Value* low, Value* extent,
               const char* low_name, const char* extent_name, MPI_Aint TypeObject::*low_field,
               MPI_Aint TypeObject::*extent_field) {
  return guarded(call, MPI_COMM_WORLD, [&] {
    const TypeObject& type = checked_any_datatype(datatype);
    check_out(low, low_name);
    check_out(extent, extent_name);
    *low = type.*low_field;
    *extent = type.*extent_field;
  });
}

template <typename Value>
int extent_of(const char* call, MPI_Datatype datatype, Value* lb, Value* extent) {
  return get_bounds(call, datatype, lb, extent, "lb", "extent", &TypeObject::lb,
                    &TypeObject::extent);
}

template <typename Value>
int true_extent_of(const char* call, MPI_Datatype datatype, Value* true_lb, Value* true_extent) {
  return get_bounds(call, datatype, true_lb, true_extent, "true_lb", "true_extent",
                    &TypeObject::true_lb, &TypeObject::true_extent);
}

// The predefined elements a status's received bytes make up (-1: they end inside one).
long long checked_elements(const MPI_Status* status, MPI_Datatype datatype, const void* count) {
  const TypeObject& type = checked_any_datatype(datatype);
  if (status == MPI_STATUS_IGNORE) fail(MPI_ERR_ARG, "status is MPI_STATUS_IGNORE");
  check_out(count, "count");
  return elements_in(type, static_cast<std::size_t>(status->halyard_received_bytes));
}

}  // namespace

extern "C" {

int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return construct("MPI_Type_contiguous", newtype, [&] {
    std::size_t n = checked_count(count);
    const TypeObject& old = checked_any_datatype(oldtype, "oldtype");
    TypeBuilder builder;
    builder.add(old, 0, n);
    return builder.finish({MPI_COMBINER_CONTIGUOUS, {count}, {}, {recipe_type(oldtype, old)}});
  });
}

int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                    MPI_Datatype* newtype) {
  return construct("MPI_Type_vector", newtype, [&] {
    std::size_t length = checked_blocklength(blocklength);
    return placed_blocks(
        count, oldtype, [&](std::size_t) { return length; },
        [&](std::size_t i) { return static_cast<MPI_Aint>(i) * stride; }, true,
        {MPI_COMBINER_VECTOR, {count, blocklength, stride}, {}, {}});
  });
}

int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                            MPI_Datatype* newtype) {
  return construct("MPI_Type_create_hvector", newtype, [&] {
    std::size_t length = checked_blocklength(blocklength);
    return placed_blocks(
        count, oldtype, [&](std::size_t) { return length; },
        [&](std::size_t i) { return static_cast<MPI_Aint>(i) * stride; }, false,
        {MPI_COMBINER_HVECTOR, {count, blocklength}, {stride}, {}});
  });
}

int MPI_Type_indexed(int count, const int array_of_blocklengths[],
                     const int array_of_displacements[], MPI_Datatype oldtype,
                     MPI_Datatype* newtype) {
  return construct("MPI_Type_indexed", newtype, [&] {
    check_array(array_of_blocklengths, count, "array_of_blocklengths");
    check_array(array_of_displacements, count, "array_of_displacements");
    std::vector<int> ints = ints_of({count}, array_of_blocklengths, count);
    ints.insert(ints.end(), array_of_displacements, array_of_displacements + std::max(count, 0));
    return placed_blocks(
        count, oldtype, block_length(array_of_blocklengths),
        [&](std::size_t i) { return static_cast<MPI_Aint>(array_of_displacements[i]); }, true,
        {MPI_COMBINER_INDEXED, std::move(ints), {}, {}});
  });
}

int MPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                             const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                             MPI_Datatype* newtype) {
  return construct("MPI_Type_create_hindexed", newtype, [&] {
    check_array(array_of_blocklengths, count, "array_of_blocklengths");
    check_array(array_of_displacements, count, "array_of_displacements");
    return placed_blocks(count, oldtype, block_length(array_of_blocklengths),
                         [&](std::size_t i) { return array_of_displacements[i]; }, false,
                         {MPI_COMBINER_HINDEXED,
                          ints_of({count}, array_of_blocklengths, count),
                          aints_of(array_of_displacements, count),
                          {}});
  });
}

int MPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                  MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return construct("MPI_Type_create_indexed_block", newtype, [&] {
    std::size_t length = checked_blocklength(blocklength);
    check_array(array_of_displacements, count, "array_of_displacements");
    return placed_blocks(
        count, oldtype, [&](std::size_t) { return length; },
        [&](std::size_t i) { return static_cast<MPI_Aint>(array_of_displacements[i]); }, true,
        {MPI_COMBINER_INDEXED_BLOCK,
         ints_of({count, blocklength}, array_of_displacements, count),
         {},
         {}});
  });
}

int MPI_Type_create_hindexed_block(int count, int blocklength,
                                   const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                   MPI_Datatype* newtype) {
  return construct("MPI_Type_create_hindexed_block", newtype, [&] {
    std::size_t length = checked_blocklength(blocklength);
    check_array(array_of_displacements, count, "array_of_displacements");
    return placed_blocks(
        count, oldtype, [&](std::size_t) { return length; },
        [&](std::size_t i) { return array_of_displacements[i]; }, false,
        {MPI_COMBINER_HINDEXED_BLOCK,
         {count, blocklength},
         aints_of(array_of_displacements, count),
         {}});
  });
}

int MPI_Type_create_struct(int count, const int array_of_blocklengths[],
                           const MPI_Aint array_of_displacements[],
                           const MPI_Datatype array_of_types[], MPI_Datatype* newtype) {
  return construct("MPI_Type_create_struct", newtype, [&] {
    std::size_t n = checked_count(count);
    check_array(array_of_blocklengths, n, "array_of_blocklengths");
    check_array(array_of_displacements, n, "array_of_displacements");
    check_array(array_of_types, n, "array_of_types");
    TypeRecipe recipe{MPI_COMBINER_STRUCT,
                      ints_of({count}, array_of_blocklengths, count),
                      aints_of(array_of_displacements, count),
                      {}};
    TypeBuilder builder;
    for (std::size_t i = 0; i < n; ++i) {
      std::string name = "array_of_types[" + std::to_string(i) + "]";
      const TypeObject& type = checked_any_datatype(array_of_types[i], name.c_str());
      std::size_t length = checked_blocklength(array_of_blocklengths[i], "array_of_blocklengths");
      builder.add(type, array_of_displacements[i], length);
      recipe.types.push_back(recipe_type(array_of_types[i], type));
    }
    return builder.finish(std::move(recipe), true);
  });
}

int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                            MPI_Datatype* newtype) {
  return construct("MPI_Type_create_resized", newtype, [&] {
    const TypeObject& old = checked_any_datatype(oldtype, "oldtype");
    return resized(old, lb, extent,
                   {MPI_COMBINER_RESIZED, {}, {lb, extent}, {recipe_type(oldtype, old)}});
  });
}

int MPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                             const int array_of_starts[], int order, MPI_Datatype oldtype,
                             MPI_Datatype* newtype) {
  return construct("MPI_Type_create_subarray", newtype, [&] {
    Dims dims = checked_dims(ndims, array_of_sizes, array_of_subsizes, array_of_starts, order);
    const TypeObject& old = checked_any_datatype(oldtype, "oldtype");
    auto n = static_cast<std::size_t>(ndims);
    std::vector<int> ints = ints_of({ndims}, array_of_sizes, ndims);
    ints.insert(ints.end(), array_of_subsizes, array_of_subsizes + n);
    ints.insert(ints.end(), array_of_starts, array_of_starts + n);
    ints.push_back(order);
    return subarray_of(dims, old,
                       {MPI_COMBINER_SUBARRAY, std::move(ints), {}, {recipe_type(oldtype, old)}});
  });
}

int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return guarded("MPI_Type_dup", MPI_COMM_WORLD, [&] {
    check_out(newtype, "newtype");
    const TypeObject& old = checked_any_datatype(oldtype, "oldtype");
    // The copy callbacks run first: one that fails leaves no new handle behind.
    AttributeMap attributes = copied_attributes(oldtype, type_attributes(oldtype));
    auto copy = std::make_shared<TypeObject>(old);
    copy->name.clear();
    copy->predefined = false;
    copy->recipe = {MPI_COMBINER_DUP, {}, {}, {recipe_type(oldtype, old)}};
    *newtype = datatype_table().add(std::move(copy));
    if (!attributes.empty()) type_attributes(*newtype) = std::move(attributes);
  });
}

int MPI_Type_commit(MPI_Datatype* datatype) {
  return guarded("MPI_Type_commit", MPI_COMM_WORLD, [&] {
    check_out(datatype, "datatype");
    mutable_type(*datatype).committed = true;
  });
}

int MPI_Type_free(MPI_Datatype* datatype) {
  return guarded("MPI_Type_free", MPI_COMM_WORLD, [&] {
    check_out(datatype, "datatype");
    const TypeObject& type = checked_any_datatype(*datatype);
    if (type.predefined) fail(MPI_ERR_TYPE, "cannot free the predefined datatype " + type.name);
    delete_all_attributes(*datatype, type_attributes(*datatype));
    forget_type_attributes(*datatype);
    datatype_table().remove(*datatype);
    *datatype = MPI_DATATYPE_NULL;
  });
}

int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent) {
  return extent_of("MPI_Type_get_extent", datatype, lb, extent);
}

int MPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  return extent_of("MPI_Type_get_extent_x", datatype, lb, extent);
}

int MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint* true_lb, MPI_Aint* true_extent) {
  return true_extent_of("MPI_Type_get_true_extent", datatype, true_lb, true_extent);
}

int MPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent) {
  return true_extent_of("MPI_Type_get_true_extent_x", datatype, true_lb, true_extent);
}

int MPI_Type_size_x(MPI_Datatype datatype, MPI_Count* size) {
  return guarded("MPI_Type_size_x", MPI_COMM_WORLD, [&] {
    const TypeObject& type = checked_any_datatype(datatype);
    check_out(size, "size");
    *size = static_cast<MPI_Count>(type.size);
  });
}

int MPI_Type_get_name(MPI_Datatype datatype, char* type_name, int* resultlen) {
  return guarded("MPI_Type_get_name", MPI_COMM_WORLD, [&] {
    const TypeObject& type = checked_any_datatype(datatype);
    check_out(type_name, "type_name");
    check_out(resultlen, "resultlen");
    copy_name(type.name, type_name, resultlen);
  });
}

int MPI_Type_set_name(MPI_Datatype datatype, const char* type_name) {
  return guarded("MPI_Type_set_name", MPI_COMM_WORLD, [&] {
    TypeObject& type = mutable_type(datatype);
    check_out(type_name, "type_name");
    type.name.assign(type_name, strnlen(type_name, MPI_MAX_OBJECT_NAME - 1));
  });
}

int MPI_Type_get_envelope(MPI_Datatype datatype, int* num_integers, int* num_addresses,
                          int* num_datatypes, int* combiner) {
  return guarded("MPI_Type_get_envelope", MPI_COMM_WORLD, [&] {
    const TypeRecipe& recipe = checked_any_datatype(datatype).recipe;
    for (const int* out : {num_integers, num_addresses, num_datatypes, combiner}) {
      check_out(out, "an output argument");
    }
    *num_integers = static_cast<int>(recipe.integers.size());
    *num_addresses = static_cast<int>(recipe.addresses.size());
    *num_datatypes = static_cast<int>(recipe.types.size());
    *combiner = recipe.combiner;
  });
}

int MPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                          int max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[],
                          MPI_Datatype array_of_datatypes[]) {
  return guarded("MPI_Type_get_contents", MPI_COMM_WORLD, [&] {
    const TypeRecipe& recipe = checked_any_datatype(datatype).recipe;
    if (recipe.combiner == MPI_COMBINER_NAMED) {
      fail(MPI_ERR_TYPE, "a predefined datatype has no contents (combiner MPI_COMBINER_NAMED)");
    }
    auto check_room_for = [](std::size_t needed, int max, const void* array, const char* name) {
      if (static_cast<long long>(needed) > max) {
        fail(MPI_ERR_ARG, std::string("max_") + name + " " + std::to_string(max) + " < " +
                              std::to_string(needed));
      }
      check_array(array, needed, (std::string("array_of_") + name).c_str());
    };
    check_room_for(recipe.integers.size(), max_integers, array_of_integers, "integers");
    check_room_for(recipe.addresses.size(), max_addresses, array_of_addresses, "addresses");
    check_room_for(recipe.types.size(), max_datatypes, array_of_datatypes, "datatypes");
    std::copy(recipe.integers.begin(), recipe.integers.end(), array_of_integers);
    std::copy(recipe.addresses.begin(), recipe.addresses.end(), array_of_addresses);
    std::transform(recipe.types.begin(), recipe.types.end(), array_of_datatypes, returned_type);
  });
}

int MPI_Get_address(const void* location, MPI_Aint* address) {
  return guarded("MPI_Get_address", MPI_COMM_WORLD, [&] {
    check_out(address, "address");
    *address = reinterpret_cast<MPI_Aint>(location);
  });
}

int MPI_Get_elements(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  return guarded("MPI_Get_elements", MPI_COMM_WORLD, [&] {
    long long elements = checked_elements(status, datatype, count);
    *count = elements < 0 || elements > INT_MAX ? MPI_UNDEFINED : static_cast<int>(elements);
  });
}

int MPI_Get_elements_x(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  return guarded("MPI_Get_elements_x", MPI_COMM_WORLD, [&] {
    long long elements = checked_elements(status, datatype, count);
    *count = elements < 0 ? MPI_UNDEFINED : elements;
  });
}

int MPI_Pack(const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf, int outsize,
             int* position, MPI_Comm comm) {
  return guarded("MPI_Pack", comm, [&] {
    PackedSpan span =
        checked_span(comm, incount, "incount", datatype, position, outsize, "outsize");
    check_buffer(inbuf, span.count, *span.type, "inbuf");
    check_buffer(outbuf, span.bytes, "outbuf");
    pack(*span.type, inbuf, span.count, static_cast<std::byte*>(outbuf) + span.at);
    *position = static_cast<int>(span.at + span.bytes);
  });
}

int MPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount,
               MPI_Datatype datatype, MPI_Comm comm) {
  return guarded("MPI_Unpack", comm, [&] {
    PackedSpan span =
        checked_span(comm, outcount, "outcount", datatype, position, insize, "insize");
    check_buffer(inbuf, span.bytes, "inbuf");
    check_buffer(outbuf, span.count, *span.type, "outbuf");
    unpack(*span.type, static_cast<const std::byte*>(inbuf) + span.at, span.bytes, outbuf,
           span.count);
    *position = static_cast<int>(span.at + span.bytes);
  });
}

int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int* size) {
  return guarded("MPI_Pack_size", comm, [&] {
    shim_state().comm(comm);
    std::size_t n = checked_count(incount, "incount");
    const TypeObject& type = checked_datatype(datatype);
    check_out(size, "size");
    *size = static_cast<int>(bytes_of(n, type));  // packed data is the bytes, no header
  });
}

}  // extern "C"
