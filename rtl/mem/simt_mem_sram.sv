// On-chip memory serving the memory port (docs/blocks/mem_port.md) from block RAM, plus a
// 32-bit word port for a host (the FPGA top's): the FPGA top's global data memory.
//
// One line per row, one RAM per word of the line (word-granular writes: a request's byte
// enables cover whole words, asserted). Reads and writes answer in the next cycle, one
// request per cycle while the requester takes the responses; an atomic reads its word, then
// writes the new one (amo_apply) and answers a cycle later. Responses come in request order.
// The request's ready comes from registers alone (issue #26: through the response's ready it
// chained the requester's write-back decision into its next request): a response not taken
// moves to a skid register when the next request's read replaces the RAM's output, and the
// memory takes no request while the skid is full.
// A request past the memory's end is answered with an error and has no effect. The host port
// gets the cycles the requester leaves (its read data the next cycle, held until its next
// read).
module simt_mem_sram #(
  parameter int  Words     = 1024,
  parameter int  LineBytes = 64,
  parameter int  IdW       = 4,
  localparam int LineWords = LineBytes / 4,
  localparam int Lines     = Words / LineWords,
  localparam int OffW      = $clog2(LineBytes),
  localparam int RowW      = (Lines > 1) ? $clog2(Lines) : 1,
  localparam int WordW     = $clog2(Words)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,

  input  logic                   req_valid_i,
  output logic                   req_ready_o,
  input  logic [IdW-1:0]         req_id_i,
  input  logic                   req_we_i,
  input  logic [3:0]             req_amo_i,
  input  logic [31:0]            req_addr_i,
  input  logic [LineBytes-1:0]   req_be_i,
  input  logic [LineBytes*8-1:0] req_wdata_i,
  input  logic [31:0]            req_cmp_i,
  output logic                   rsp_valid_o,
  input  logic                   rsp_ready_i,
  output logic [IdW-1:0]         rsp_id_o,
  output logic                   rsp_err_o,
  output logic [LineBytes*8-1:0] rsp_rdata_o,

  input  logic                   host_valid_i,
  output logic                   host_ready_o,
  input  logic                   host_we_i,
  input  logic [WordW-1:0]       host_addr_i,   // word index
  input  logic [31:0]            host_wdata_i,
  output logic [31:0]            host_rdata_o
);

  logic                   rsp_v_d, rsp_v_q;
  logic [IdW-1:0]         rsp_id_d, rsp_id_q;
  logic                   rsp_err_d, rsp_err_q;
  logic                   amo_d, amo_q;          // an atomic's write cycle
  logic [3:0]             amo_op_d, amo_op_q;
  logic [RowW-1:0]        amo_row_d, amo_row_q;
  logic [OffW-3:0]        amo_word_d, amo_word_q;
  logic [31:0]            amo_arg_d, amo_arg_q, amo_cmp_d, amo_cmp_q;
  logic [OffW-3:0]        host_word_d, host_word_q;
  // The skid: the older of two responses (the RAM's output holds the younger's read data).
  logic                   sk_v_d, sk_v_q;
  logic [IdW-1:0]         sk_id_d, sk_id_q;
  logic                   sk_err_d, sk_err_q;
  logic [LineBytes*8-1:0] sk_data_d, sk_data_q;
  logic                   a_taken;  // the RAM stage's response is taken this cycle

  logic [LineWords-1:0]   w_we;
  logic                   r_re;
  logic [RowW-1:0]        w_row, r_row;
  logic [LineBytes*8-1:0] w_data, r_data;

  for (genvar w = 0; w < LineWords; w++) begin : g_word
    simt_ram_1r1w #(.Width(32), .Depth(Lines)) u_ram (
      .clk_i   (clk_i),
      .we_i    (w_we[w]),
      .waddr_i (w_row),
      .wdata_i (w_data[w*32 +: 32]),
      .re_i    (r_re),
      .raddr_i (r_row),
      .rdata_o (r_data[w*32 +: 32])
    );
  end

  // The request's row and whether the memory has it.
  logic [RowW-1:0] req_row;
  logic            req_backed;
  logic [OffW-3:0] req_word;
  assign req_row    = RowW'(req_addr_i >> OffW);
  assign req_backed = (req_addr_i >> OffW) < 32'(Lines);
  always_comb begin
    req_word = '0;
    for (int w = LineWords - 1; w >= 0; w--) begin
      if (req_be_i[w*4]) req_word = (OffW-2)'(w);
    end
  end

  logic req_fire, host_fire;
  // A new request while the skid is free and no atomic writes: a response still waiting in
  // the RAM stage then moves to the skid (below).
  assign req_ready_o  = !amo_q && !sk_v_q;
  assign req_fire     = req_valid_i && req_ready_o;
  assign a_taken      = rsp_v_q && !sk_v_q && rsp_ready_i;
  // The host uses the RAM in cycles the requester leaves; a host read must not disturb the
  // read data of a response still waiting.
  assign host_ready_o = !req_valid_i && !amo_q && !(rsp_v_q && !a_taken && !host_we_i);
  assign host_fire    = host_valid_i && host_ready_o;

  // The skid takes the RAM stage's response when a request fires beside it untaken (the
  // request's read, or its response, replaces it), and gives it out first.
  always_comb begin
    sk_v_d    = sk_v_q && !rsp_ready_i;
    sk_id_d   = sk_id_q;
    sk_err_d  = sk_err_q;
    sk_data_d = sk_data_q;
    if (req_fire && rsp_v_q && !a_taken) begin
      sk_v_d    = 1'b1;
      sk_id_d   = rsp_id_q;
      sk_err_d  = rsp_err_q;
      sk_data_d = rsp_err_q ? '0 : r_data;
    end
  end

  always_comb begin
    rsp_v_d     = rsp_v_q && !a_taken && !req_fire;  // (a request fired: in the skid now)
    rsp_id_d    = rsp_id_q;
    rsp_err_d   = rsp_err_q;
    amo_d       = 1'b0;
    amo_op_d    = amo_op_q;
    amo_row_d   = amo_row_q;
    amo_word_d  = amo_word_q;
    amo_arg_d   = amo_arg_q;
    amo_cmp_d   = amo_cmp_q;
    host_word_d = host_word_q;
    w_we        = '0;
    w_row       = req_row;
    w_data      = req_wdata_i;
    r_re        = 1'b0;
    r_row       = req_row;

    if (amo_q) begin
      // The atomic's word was read last cycle: write the new one, answer with the old line.
      w_we[amo_word_q] = 1'b1;
      w_row            = amo_row_q;
      for (int w = 0; w < LineWords; w++) begin
        w_data[w*32 +: 32] = simt_mem_pkg::amo_apply(amo_op_q, r_data[amo_word_q*32 +: 32],
                                                     amo_arg_q, amo_cmp_q);
      end
      rsp_v_d = 1'b1;
    end else if (req_fire) begin
      rsp_id_d  = req_id_i;
      rsp_err_d = !req_backed;
      if (!req_backed) begin
        rsp_v_d = 1'b1;
      end else if (req_amo_i != simt_mem_pkg::AmoNone) begin
        r_re       = 1'b1;
        amo_d      = 1'b1;
        amo_op_d   = req_amo_i;
        amo_row_d  = req_row;
        amo_word_d = req_word;
        amo_arg_d  = req_wdata_i[req_word*32 +: 32];
        amo_cmp_d  = req_cmp_i;
      end else if (req_we_i) begin
        for (int w = 0; w < LineWords; w++) w_we[w] = req_be_i[w*4];
        rsp_v_d = 1'b1;
      end else begin
        r_re    = 1'b1;
        rsp_v_d = 1'b1;
      end
    end else if (host_fire) begin
      w_row  = RowW'(host_addr_i >> (OffW - 2));
      r_row  = RowW'(host_addr_i >> (OffW - 2));
      w_data = {LineWords{host_wdata_i}};
      if (host_we_i) begin
        w_we[host_addr_i[OffW-3:0]] = 1'b1;
      end else begin
        r_re        = 1'b1;
        host_word_d = host_addr_i[OffW-3:0];
      end
    end
  end

  assign rsp_valid_o  = sk_v_q || rsp_v_q;
  assign rsp_id_o     = sk_v_q ? sk_id_q : rsp_id_q;
  assign rsp_err_o    = sk_v_q ? sk_err_q : rsp_err_q;
  assign rsp_rdata_o  = sk_v_q ? sk_data_q : (rsp_err_q || !rsp_v_q) ? '0 : r_data;
  assign host_rdata_o = r_data[host_word_q*32 +: 32];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rsp_v_q     <= 1'b0;
      rsp_id_q    <= '0;
      rsp_err_q   <= 1'b0;
      amo_q       <= 1'b0;
      amo_op_q    <= '0;
      amo_row_q   <= '0;
      amo_word_q  <= '0;
      amo_arg_q   <= '0;
      amo_cmp_q   <= '0;
      host_word_q <= '0;
      sk_v_q      <= 1'b0;
      sk_id_q     <= '0;
      sk_err_q    <= 1'b0;
      sk_data_q   <= '0;
    end else begin
      rsp_v_q     <= rsp_v_d;
      rsp_id_q    <= rsp_id_d;
      rsp_err_q   <= rsp_err_d;
      amo_q       <= amo_d;
      amo_op_q    <= amo_op_d;
      amo_row_q   <= amo_row_d;
      amo_word_q  <= amo_word_d;
      amo_arg_q   <= amo_arg_d;
      amo_cmp_q   <= amo_cmp_d;
      host_word_q <= host_word_d;
      sk_v_q      <= sk_v_d;
      sk_id_q     <= sk_id_d;
      sk_err_q    <= sk_err_d;
      sk_data_q   <= sk_data_d;
    end
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    // The skid holds the older response only beside a younger one in the RAM stage (whose
    // read data the RAM's output holds: nothing reads the RAM while the skid is full).
    if (rst_ni && sk_v_q) begin
      assert (rsp_v_q || amo_q) else $error("mem_sram: a skid response without a younger one");
      assert (!r_re) else $error("mem_sram: the RAM read while the skid is full");
    end
    if (rst_ni && req_fire) begin
      for (int w = 0; w < LineWords; w++) begin
        assert (req_be_i[w*4 +: 4] == 4'h0 || req_be_i[w*4 +: 4] == 4'hF)
          else $error("mem_sram: byte enables that split a word");
      end
      assert (req_addr_i[OffW-1:0] == '0) else $error("mem_sram: a request address inside a line");
      assert (req_amo_i == simt_mem_pkg::AmoNone || (!req_we_i && req_be_i != '0))
        else $error("mem_sram: an atomic that writes, or without its word");
    end
  end
`endif

endmodule
