// The memory port's types (docs/blocks/mem_port.md): what a load/store unit, an L1 cache,
// the FPGA top's data memory and the C++ harness's memory model exchange.
//
// The port is line-wide; its widths are module parameters (LineBytes, IdW), so the package
// holds only the width-independent parts: the atomic operations the memory side performs.
package simt_mem_pkg;

  /* verilator lint_off UNUSEDPARAM */

  // Atomic operation of a request (performed by the memory, on the one word its byte
  // enables select; the response carries the old word). Encodings 1..7 are the ISA's
  // atomic `sub` field plus one (add min max and or xor exch); min/max are signed.
  typedef enum logic [3:0] {
    AmoNone = 4'd0,  // a plain read or write
    AmoAdd  = 4'd1,
    AmoMin  = 4'd2,
    AmoMax  = 4'd3,
    AmoAnd  = 4'd4,
    AmoOr   = 4'd5,
    AmoXor  = 4'd6,
    AmoExch = 4'd7,
    AmoCas  = 4'd8   // if word == amo_cmp then word = the operand
  } amo_e;

  // Default geometry (the verilated core's; the FPGA top may choose narrower lines).
  localparam int LineBytes = 64;
  localparam int IdW       = 7;  // 128 requests outstanding (issue #19: a 100-cycle memory)

  /* verilator lint_on UNUSEDPARAM */

  // The word an atomic operation leaves in memory, from the old word, the operand and the
  // compare value (cas). Used by every memory that serves the port.
  function automatic logic [31:0] amo_apply(logic [3:0] op, logic [31:0] old_word,
                                            logic [31:0] operand, logic [31:0] cmp);
    amo_apply = old_word;
    unique case (op)
      4'd1:    amo_apply = old_word + operand;
      4'd2:    amo_apply = ($signed(old_word) < $signed(operand)) ? old_word : operand;
      4'd3:    amo_apply = ($signed(old_word) < $signed(operand)) ? operand : old_word;
      4'd4:    amo_apply = old_word & operand;
      4'd5:    amo_apply = old_word | operand;
      4'd6:    amo_apply = old_word ^ operand;
      4'd7:    amo_apply = operand;
      4'd8:    amo_apply = (old_word == cmp) ? operand : old_word;
      default: amo_apply = old_word;
    endcase
  endfunction

endpackage
