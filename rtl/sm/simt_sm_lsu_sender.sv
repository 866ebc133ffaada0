// Load/store unit, the sender (docs/blocks/sm.md, "The sender"): the copies from which a
// global instruction that is already done puts out the rest of its requests while the core
// goes on.
//
// A plain load or store of one group, or a v4 load or store of one group, is done in the
// unit's CHECK (a v4 store once its elements are gathered) and hands over here (take_i) its
// group's addresses and store data (a v4 store: element 3; elements 0-2 stay in the unit's
// gather register) and what it is. The unit's coalescer then works from these copies until
// the instruction's last request is sent (done_i), while the register file's ports, the
// instruction and its lanes on the unit's inputs are already the next instruction's. done_i
// wins over take_i: an instruction whose first request is its last never stays here.
module simt_sm_lsu_sender #(
  parameter int NumLanes = 32
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   take_i,
  input  logic [NumLanes*32-1:0] addr_i,
  input  logic [NumLanes*32-1:0] data_i,
  input  logic                   v4_i,
  input  logic                   store_i,
  input  logic                   done_i,   // the last request is sent
  output logic                   busy_o,   // an instruction's requests are still to send
  output logic                   busy_next_o,  // ... in the next cycle
  output logic [NumLanes*32-1:0] addr_o,
  output logic [NumLanes*32-1:0] data_o,
  output logic                   v4_o,
  output logic                   store_o
);

  logic                   busy_d, busy_q;
  logic [NumLanes*32-1:0] addr_d, addr_q, data_d, data_q;
  logic                   v4_d, v4_q, store_d, store_q;

  always_comb begin
    busy_d  = busy_q;
    addr_d  = addr_q;
    data_d  = data_q;
    v4_d    = v4_q;
    store_d = store_q;
    if (take_i) begin
      busy_d  = 1'b1;
      addr_d  = addr_i;
      data_d  = data_i;
      v4_d    = v4_i;
      store_d = store_i;
    end
    if (done_i) busy_d = 1'b0;
  end

  assign busy_o      = busy_q;
  assign busy_next_o = busy_d;
  assign addr_o  = addr_q;
  assign data_o  = data_q;
  assign v4_o    = v4_q;
  assign store_o = store_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      addr_q  <= '0;
      data_q  <= '0;
      v4_q    <= 1'b0;
      store_q <= 1'b0;
    end else begin
      busy_q  <= busy_d;
      addr_q  <= addr_d;
      data_q  <= data_d;
      v4_q    <= v4_d;
      store_q <= store_d;
    end
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // One instruction at a time: the next hands over only once this one is done.
      assert (!(take_i && busy_q))
        else $error("sm lsu sender: an instruction handed over while another sends");
    end
  end
`endif

endmodule
